/*
 * burncycle-table LED firmware for an ATmega328P at 16 MHz (Arduino Nano/Uno class).
 *
 * The host sends framed, checksummed, sequenced commands (PROTOCOL.md); this loop parses them from
 * the UART ring, executes them, and answers every frame: ACK only once the strip has latched, NAK
 * for anything refused or damaged. The host is stop-and-wait, so no byte arrives while interrupts
 * are off for the strip. When the host goes silent, a dim amber breathing pattern shows the table
 * has lost its link; the watchdog resets a hung chip.
 */
#include <avr/io.h>
#include <avr/interrupt.h>
#include <avr/wdt.h>
#include <string.h>
#include <util/delay.h>

#include "board.h"
#include "clock.h"
#include "protocol.h"
#include "uart.h"
#include "ws2812.h"

#define PIXEL_BYTES (3u * LED_COUNT)
#define MAX_PAYLOAD (2u + PIXEL_BYTES)
#define FALLBACK_STEP_MS 40u

#if FALLBACK_MS > 4000u
#error "FALLBACK_MS must be at most 4000: the clock's 16 bits wrap after 4.19 s"
#endif

static uint8_t pixels[PIXEL_BYTES];
/* The frame buffer (the parser's payload); between frames also the scaled copy of `pixels` for a
 * show, and the fallback's picture. `pixels` holds only what the host sent: all 0 at start. */
static uint8_t rx_payload[MAX_PAYLOAD];
static bc_parser parser;
static uint8_t brightness = 255;
static uint8_t status;

/* Left enabled by a watchdog reset, the watchdog would fire again during start-up. */
static void early_wdt_off(void) __attribute__((naked, used, section(".init3")));
static void early_wdt_off(void) {
    MCUSR = 0;
    wdt_disable();
}

static void reply(uint8_t type, uint8_t seq, const uint8_t *payload, uint16_t len) {
    uint8_t out[BC_OVERHEAD + 8];
    uint16_t n = bc_encode(out, type, seq, payload, len);
    uart_write(out, n);
}

static void ack(uint8_t seq, uint8_t st) { reply(BC_ACK, seq, &st, 1); }

static void nak(uint8_t seq, uint8_t reason) { reply(BC_NAK, seq, &reason, 1); }

static void hello(uint8_t seq, uint8_t st) {
    uint8_t p[8] = {BC_PROTOCOL_VERSION, FW_MAJOR, FW_MINOR,
                    (uint8_t)(LED_COUNT & 0xFF), (uint8_t)(LED_COUNT >> 8),
                    (uint8_t)(MAX_PAYLOAD & 0xFF), (uint8_t)(MAX_PAYLOAD >> 8), st};
    reply(BC_HELLO_REPLY, seq, p, sizeof p);
}

/* Writes the pixels to the strip with the brightness applied (the scaled copy goes into the frame
 * buffer, whose frame has been carried out), and waits for the latch. */
static void show(void) {
    const uint8_t *out = pixels;
    if (brightness != 255) {
        for (uint16_t i = 0; i < PIXEL_BYTES; i++)
            rx_payload[i] = (uint8_t)(((uint16_t)pixels[i] * (uint16_t)(brightness + 1u)) >> 8);
        out = rx_payload;
    }
    ws2812_send(out, PIXEL_BYTES, 0);
    _delay_us(LATCH_US);
}

/* Carries out a good frame and answers it; 1 if it was carried out (ACK or HELLO_REPLY), 0 if it
 * was refused (NAK TYPE or ARG), which, like any NAKed frame, has no effect at all: it does not even
 * stop the fallback, as it does not show that a host is driving the board. */
static uint8_t execute(uint8_t type, uint8_t seq, const uint8_t *p, uint16_t len) {
    uint8_t reason = bc_check_command(type, p, len, LED_COUNT);
    if (reason) {
        nak(seq, reason);
        return 0;
    }
    /* The frame stops the fallback; its answer still says the fallback was running, once. */
    uint8_t fell_back = status & BC_ST_FALLBACK;
    status &= (uint8_t)~BC_ST_FALLBACK;
    switch (type) {
    case BC_HELLO:
        hello(seq, status | fell_back);
        return 1;
    case BC_SET: {
        uint16_t start = (uint16_t)(p[0] | ((uint16_t)p[1] << 8));
        memcpy(pixels + 3u * start, p + 2, len - 2u);
        break;
    }
    case BC_SHOW:
        memcpy(pixels, p, len);
        show();
        status |= BC_ST_HOST_FRAME;
        break;
    case BC_FILL:
        for (uint16_t i = 0; i < PIXEL_BYTES; i += 3) memcpy(pixels + i, p, 3);
        break;
    case BC_BRIGHTNESS:
        brightness = p[0];
        break;
    default: /* BC_PING */
        break;
    }
    ack(seq, status | fell_back);
    return 1;
}

/* One step of the breathing pattern: every LED (a, a/2 rounded down, 0) with a on a 0..31..0
 * triangle, one step every 512 ticks (32.768 ms), so 64 steps (2.097 s) wrap with the clock. It is
 * drawn in the frame buffer (free: no frame is in progress), never in `pixels`, so the host's
 * picture survives for a SHOW without payload; BRIGHTNESS does not apply to it. */
static void fallback_step(uint16_t now) {
    uint8_t phase = (uint8_t)((now >> 9) & 63u);
    uint8_t level = phase < 32 ? phase : (uint8_t)(63u - phase);
    status = (uint8_t)((status | BC_ST_FALLBACK) & ~BC_ST_HOST_FRAME);
    for (uint16_t i = 0; i < PIXEL_BYTES; i += 3) {
        rx_payload[i] = level;
        rx_payload[i + 1] = (uint8_t)(level / 2u);
        rx_payload[i + 2] = 0;
    }
    ws2812_send(rx_payload, PIXEL_BYTES, 1);
    _delay_us(LATCH_US);
}

int main(void) {
    WS_DDR |= _BV(WS_BIT);
    WS_PORT &= (uint8_t)~_BV(WS_BIT);
    uart_init();
    clock_init();
    bc_parser_init(&parser, rx_payload, MAX_PAYLOAD);
    wdt_enable(WDTO_250MS);
    sei();
    hello(0, status); /* unsolicited: a host that is already talking learns the board has restarted */

    uint16_t last_rx = clock_now();
    uint16_t last_host = last_rx;
    uint16_t last_fallback = last_rx;
    for (;;) {
        wdt_reset();
        uint8_t byte, got, heard = 0;
        while ((got = uart_read(&byte)) != UART_NONE) {
            heard = 1;
            if (got == UART_LOST) {
                /* Bytes were lost right here: the frame they fell into is damaged, whatever its
                 * CRC would say. SEQ 0 when they fell between frames. */
                nak(bc_parser_busy(&parser) ? parser.seq : 0, BC_E_OVERRUN);
                bc_parser_abort(&parser, BC_E_OVERRUN);
                continue;
            }
            bc_event ev = bc_parser_feed(&parser, byte);
            if (ev == BC_FRAME) {
                if (execute(parser.type, parser.seq, rx_payload, parser.len)) last_host = clock_now();
            } else if (ev == BC_ERROR) {
                nak(parser.seq, parser.error);
            }
        }
        /* The ring is empty, so the last byte taken arrived moments ago (the loop keeps pace with
         * the wire): the silence is measured from here, on a clock read now. Read once before the
         * drain, it would date bytes taken after a show of the strip (over 10 ms on a long strip)
         * to before it, and drop a frame that is still arriving. */
        uint16_t now = clock_now();
        if (heard) last_rx = now;
        if (bc_parser_busy(&parser) && (uint16_t)(now - last_rx) > CLOCK_TICKS(RX_TIMEOUT_MS)) {
            bc_parser_abort(&parser, BC_E_TIMEOUT);
            nak(parser.seq, BC_E_TIMEOUT);
        }
        if (!bc_parser_busy(&parser) && (uint16_t)(now - last_host) > CLOCK_TICKS(FALLBACK_MS) &&
            (uint16_t)(now - last_fallback) >= CLOCK_TICKS(FALLBACK_STEP_MS)) {
            last_fallback = now;
            fallback_step(now);
            /* stay in fallback across the clock's wrap-around */
            last_host = (uint16_t)(now - CLOCK_TICKS(FALLBACK_MS) - 1u);
        }
    }
}

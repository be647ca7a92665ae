/*
 * The receive interrupt empties the chip's 2-byte FIFO into a 64-byte ring as fast as bytes arrive;
 * the main loop parses at its own pace. A lost byte (DOR set, or the ring full) is remembered so the
 * main loop can drop the frame it belonged to and NAK it, instead of latching a corrupted frame.
 */
#include <avr/io.h>
#include <avr/interrupt.h>
#include <util/atomic.h>

#include "uart.h"
#include "board.h"

/* The offered rates: they divide 16 MHz exactly, and at each the receive path keeps pace with the
 * wire for a strip of LED_COUNT_MAX (checked in the simulator, tests/firmware). */
#if BAUD != 250000UL && BAUD != 500000UL && BAUD != 1000000UL
#error "BAUD must be 250000, 500000 or 1000000"
#endif
#define UBRR_VALUE ((F_CPU / (8UL * BAUD)) - 1UL)

volatile uint8_t uart_rx_buf[UART_RX_SIZE];
volatile uint8_t uart_rx_head;
volatile uint8_t uart_rx_tail;
static volatile uint8_t rx_overrun;

void uart_init(void) {
    UBRR0H = (uint8_t)(UBRR_VALUE >> 8);
    UBRR0L = (uint8_t)UBRR_VALUE;
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

ISR(USART_RX_vect) {
    uint8_t status = UCSR0A;
    uint8_t byte = UDR0;
    if (status & (_BV(DOR0) | _BV(FE0))) rx_overrun = 1;
    uint8_t head = uart_rx_head;
    uint8_t next = (uint8_t)((head + 1u) & (UART_RX_SIZE - 1u));
    if (next == uart_rx_tail) {
        rx_overrun = 1;
        return;
    }
    uart_rx_buf[head] = byte;
    uart_rx_head = next;
}

uint8_t uart_take_overrun(void) {
    uint8_t lost;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        lost = rx_overrun;
        rx_overrun = 0;
    }
    return lost;
}

void uart_write(const uint8_t *data, uint16_t len) {
    for (uint16_t i = 0; i < len; i++) {
        while (!(UCSR0A & _BV(UDRE0))) {
        }
        UDR0 = data[i];
    }
}

/*
 * The LED link protocol, framing layer: shared by the AVR firmware and the host unit tests.
 *
 * Plain C99 with no AVR headers, so the exact code that runs on the chip is also compiled with the
 * host gcc and checked against firmware/protocol/vectors.json (the same vectors the Python side
 * checks). Byte-by-byte description: firmware/PROTOCOL.md.
 */
#ifndef BC_PROTOCOL_H
#define BC_PROTOCOL_H

#include <stdint.h>

#define BC_SYNC 0xA5u
#define BC_HEADER_LEN 5u   /* sync, type, seq, len lo, len hi */
#define BC_TRAILER_LEN 2u  /* crc lo, crc hi */
#define BC_OVERHEAD (BC_HEADER_LEN + BC_TRAILER_LEN)
#define BC_PROTOCOL_VERSION 1u

/* Host to device. */
#define BC_HELLO 0x01u
#define BC_PING 0x02u
#define BC_SET 0x03u
#define BC_SHOW 0x04u
#define BC_FILL 0x05u
#define BC_BRIGHTNESS 0x06u

/* Device to host. */
#define BC_ACK 0x80u
#define BC_HELLO_REPLY 0x81u
#define BC_NAK 0x82u

/* NAK reasons (the one payload byte of a NAK). */
#define BC_E_CRC 1u
#define BC_E_LENGTH 2u
#define BC_E_TYPE 3u
#define BC_E_ARG 4u
#define BC_E_OVERRUN 5u
#define BC_E_TIMEOUT 6u

/* Status bits carried by ACK and HELLO_REPLY. */
#define BC_ST_HOST_FRAME 0x01u /* the strip shows a frame the host sent since boot */
#define BC_ST_FALLBACK 0x02u   /* the host went silent and the fallback pattern runs */

typedef enum {
    BC_NONE = 0,  /* byte consumed, nothing to report */
    BC_FRAME = 1, /* a whole frame with a good CRC is in the parser */
    BC_ERROR = 2, /* a frame was dropped; parser.error and parser.seq say which and why */
} bc_event;

typedef enum {
    BC_ST_HUNT = 0,
    BC_ST_TYPE,
    BC_ST_SEQ,
    BC_ST_LEN_LO,
    BC_ST_LEN_HI,
    BC_ST_PAYLOAD,
    BC_ST_CRC_LO,
    BC_ST_CRC_HI,
} bc_state;

typedef struct {
    uint8_t *buf;      /* payload storage, at least max_len bytes, owned by the caller */
    uint16_t max_len;  /* longest payload accepted; longer headers are rejected at once */
    uint8_t state;
    uint8_t type;
    uint8_t seq;
    uint8_t error;
    uint16_t len;
    uint16_t pos;
    uint16_t crc;
    uint16_t rx_crc;
} bc_parser;

/* CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection), a byte at a time from a 256-entry
 * table (protocol.c), kept in flash on the chip. The bitwise loop took about 100 cycles a byte and,
 * with the rest of the receive path, more than the 160 a byte lasts at 1 MBd; the table step takes
 * about 12. Inline: it runs on every received byte. */
#ifdef __AVR__
#include <avr/pgmspace.h>
#define BC_CRC_ENTRY(i) pgm_read_word(&bc_crc_table[i])
#else
#define PROGMEM
#define BC_CRC_ENTRY(i) (bc_crc_table[i])
#endif
extern const uint16_t bc_crc_table[256] PROGMEM;

static inline uint16_t bc_crc16_update(uint16_t crc, uint8_t byte) {
    return (uint16_t)((crc << 8) ^ BC_CRC_ENTRY((uint8_t)((crc >> 8) ^ byte)));
}

uint16_t bc_crc16(const uint8_t *data, uint16_t len);

void bc_parser_init(bc_parser *p, uint8_t *buf, uint16_t max_len);
/* One byte through the state machine (header, last payload byte, CRC, hunting). */
bc_event bc_parser_step(bc_parser *p, uint8_t byte);

/* One byte into the parser. Payload bytes, nearly all of the traffic, take the short path inline:
 * no state dispatch, no call; the whole receive path must fit in the 160 cycles of a byte at 1 MBd. */
static inline bc_event bc_parser_feed(bc_parser *p, uint8_t byte) {
    if (p->state == BC_ST_PAYLOAD && (uint16_t)(p->pos + 1u) < p->len) {
        p->buf[p->pos++] = byte;
        p->crc = bc_crc16_update(p->crc, byte);
        return BC_NONE;
    }
    return bc_parser_step(p, byte);
}
/* Drops a partly received frame (inter-byte timeout or UART overrun); returns BC_ERROR if one was
 * in progress, with p->error set to `reason`. */
bc_event bc_parser_abort(bc_parser *p, uint8_t reason);
static inline uint8_t bc_parser_busy(const bc_parser *p) { return p->state != BC_ST_HUNT; }

/* Writes a whole frame into out (room for len + BC_OVERHEAD bytes); returns its length. */
uint16_t bc_encode(uint8_t *out, uint8_t type, uint8_t seq, const uint8_t *payload, uint16_t len);

/* Checks a good frame's type and payload for a strip of led_count LEDs: 0 or a BC_E_* reason. */
uint8_t bc_check_command(uint8_t type, const uint8_t *payload, uint16_t len, uint16_t led_count);

#endif

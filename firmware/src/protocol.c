/* Framing, CRC and command checks of the LED link; see protocol.h and PROTOCOL.md. */
#include "protocol.h"

/* CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection): bitwise, because a 512-byte table
 * would take a quarter of the chip's RAM or a slow flash lookup, and 8 shifts a byte is far inside
 * the 320 cycles a byte takes at 500 kBd. */
uint16_t bc_crc16_update(uint16_t crc, uint8_t byte) {
    crc ^= (uint16_t)byte << 8;
    for (uint8_t i = 0; i < 8; i++) {
        crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}

uint16_t bc_crc16(const uint8_t *data, uint16_t len) {
    uint16_t crc = 0xFFFFu;
    for (uint16_t i = 0; i < len; i++) crc = bc_crc16_update(crc, data[i]);
    return crc;
}

void bc_parser_init(bc_parser *p, uint8_t *buf, uint16_t max_len) {
    p->buf = buf;
    p->max_len = max_len;
    p->state = BC_ST_HUNT;
    p->type = p->seq = p->error = 0;
    p->len = p->pos = 0;
    p->crc = p->rx_crc = 0;
}

static bc_event fail(bc_parser *p, uint8_t reason) {
    p->error = reason;
    p->state = BC_ST_HUNT;
    return BC_ERROR;
}

bc_event bc_parser_feed(bc_parser *p, uint8_t b) {
    switch (p->state) {
    case BC_ST_HUNT:
        /* Anything that is not a sync byte is line noise: skipping it is the resynchronisation. */
        if (b == BC_SYNC) {
            p->state = BC_ST_TYPE;
            p->crc = 0xFFFFu;
            p->seq = 0;
        }
        return BC_NONE;
    case BC_ST_TYPE:
        p->type = b;
        p->crc = bc_crc16_update(p->crc, b);
        p->state = BC_ST_SEQ;
        return BC_NONE;
    case BC_ST_SEQ:
        p->seq = b;
        p->crc = bc_crc16_update(p->crc, b);
        p->state = BC_ST_LEN_LO;
        return BC_NONE;
    case BC_ST_LEN_LO:
        p->len = b;
        p->crc = bc_crc16_update(p->crc, b);
        p->state = BC_ST_LEN_HI;
        return BC_NONE;
    case BC_ST_LEN_HI:
        p->len |= (uint16_t)b << 8;
        p->crc = bc_crc16_update(p->crc, b);
        /* Refuse an impossible length now rather than swallow the next frames as its payload. */
        if (p->len > p->max_len) return fail(p, BC_E_LENGTH);
        p->pos = 0;
        p->state = p->len ? BC_ST_PAYLOAD : BC_ST_CRC_LO;
        return BC_NONE;
    case BC_ST_PAYLOAD:
        p->buf[p->pos++] = b;
        p->crc = bc_crc16_update(p->crc, b);
        if (p->pos == p->len) p->state = BC_ST_CRC_LO;
        return BC_NONE;
    case BC_ST_CRC_LO:
        p->rx_crc = b;
        p->state = BC_ST_CRC_HI;
        return BC_NONE;
    case BC_ST_CRC_HI:
        p->rx_crc |= (uint16_t)b << 8;
        p->state = BC_ST_HUNT;
        if (p->rx_crc != p->crc) return fail(p, BC_E_CRC);
        p->error = 0;
        return BC_FRAME;
    default:
        return fail(p, BC_E_LENGTH);
    }
}

bc_event bc_parser_abort(bc_parser *p, uint8_t reason) {
    if (p->state == BC_ST_HUNT) return BC_NONE;
    return fail(p, reason);
}

uint16_t bc_encode(uint8_t *out, uint8_t type, uint8_t seq, const uint8_t *payload, uint16_t len) {
    out[0] = BC_SYNC;
    out[1] = type;
    out[2] = seq;
    out[3] = (uint8_t)(len & 0xFFu);
    out[4] = (uint8_t)(len >> 8);
    for (uint16_t i = 0; i < len; i++) out[BC_HEADER_LEN + i] = payload[i];
    uint16_t crc = bc_crc16(out + 1, (uint16_t)(len + 4u));
    out[BC_HEADER_LEN + len] = (uint8_t)(crc & 0xFFu);
    out[BC_HEADER_LEN + len + 1] = (uint8_t)(crc >> 8);
    return (uint16_t)(len + BC_OVERHEAD);
}

uint8_t bc_check_command(uint8_t type, const uint8_t *payload, uint16_t len, uint16_t led_count) {
    switch (type) {
    case BC_HELLO:
    case BC_PING:
        return len == 0 ? 0 : BC_E_ARG;
    case BC_SET: {
        if (len < 5 || (len - 2u) % 3u != 0) return BC_E_ARG;
        uint16_t start = (uint16_t)(payload[0] | ((uint16_t)payload[1] << 8));
        uint16_t count = (uint16_t)((len - 2u) / 3u);
        return (uint32_t)start + count <= led_count ? 0 : BC_E_ARG;
    }
    case BC_SHOW:
        return (len % 3u == 0 && len / 3u <= led_count) ? 0 : BC_E_ARG;
    case BC_FILL:
        return len == 3 ? 0 : BC_E_ARG;
    case BC_BRIGHTNESS:
        return len == 1 ? 0 : BC_E_ARG;
    default:
        return BC_E_TYPE;
    }
}

/* USART0: interrupt-driven receive into a ring buffer, polled transmit of short replies. */
#ifndef BC_UART_H
#define BC_UART_H

#include <stdint.h>

#define UART_RX_SIZE 32u /* power of two; the receive path keeps pace with 4 */

/* What uart_read found. */
#define UART_NONE 0u /* nothing waiting */
#define UART_BYTE 1u /* *out holds the next byte */
#define UART_LOST 2u /* bytes were lost here in the stream (overrun, framing error, full ring) */

/* The ring, written by the receive interrupt (uart.c) and read by uart_read below. A loss is
 * marked on the ring slot it came before, so the reader meets it exactly where it happened. */
extern volatile uint8_t uart_rx_buf[UART_RX_SIZE];
extern volatile uint8_t uart_rx_head;
extern volatile uint8_t uart_rx_tail;
extern volatile uint8_t uart_rx_losses; /* marks not yet met by the reader */

void uart_init(void);
/* 1 if a loss is marked on `slot` (the mark is then cleared). */
uint8_t uart_take_loss(uint8_t slot);
void uart_write(const uint8_t *data, uint16_t len);

/* The next thing in the received stream: a byte, a loss, or nothing. Inline: at 1 MBd a byte lasts
 * 160 cycles, and the interrupt, this and the parser must all fit in them. */
static inline uint8_t uart_read(uint8_t *out) {
    uint8_t tail = uart_rx_tail;
    /* head before the marks: a byte the interrupt stores after this read is not taken until the
     * next call, which then sees a mark the interrupt set before storing it. */
    uint8_t head = uart_rx_head;
    if (uart_rx_losses && uart_take_loss(tail)) return UART_LOST;
    if (tail == head) return UART_NONE;
    *out = uart_rx_buf[tail];
    uart_rx_tail = (uint8_t)((tail + 1u) & (UART_RX_SIZE - 1u));
    return UART_BYTE;
}

#endif

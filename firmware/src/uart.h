/* USART0: interrupt-driven receive into a ring buffer, polled transmit of short replies. */
#ifndef BC_UART_H
#define BC_UART_H

#include <stdint.h>

#define UART_RX_SIZE 64u /* power of two */

/* The ring, written by the receive interrupt (uart.c) and read by uart_read below. */
extern volatile uint8_t uart_rx_buf[UART_RX_SIZE];
extern volatile uint8_t uart_rx_head;
extern volatile uint8_t uart_rx_tail;

void uart_init(void);
/* 1 (once) if a byte was lost since the last call: hardware overrun or a full ring. */
uint8_t uart_take_overrun(void);
void uart_write(const uint8_t *data, uint16_t len);

/* Next received byte into *out; 0 if none waiting. Inline: at 1 MBd a byte lasts 160 cycles, and
 * the interrupt, this and the parser must all fit in them. */
static inline uint8_t uart_read(uint8_t *out) {
    uint8_t tail = uart_rx_tail;
    if (tail == uart_rx_head) return 0;
    *out = uart_rx_buf[tail];
    uart_rx_tail = (uint8_t)((tail + 1u) & (UART_RX_SIZE - 1u));
    return 1;
}

#endif

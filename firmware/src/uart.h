/* USART0: interrupt-driven receive into a ring buffer, polled transmit of short replies. */
#ifndef BC_UART_H
#define BC_UART_H

#include <stdint.h>

void uart_init(void);
/* Next received byte into *out; 0 if none waiting. */
uint8_t uart_read(uint8_t *out);
/* 1 (once) if a byte was lost since the last call: hardware overrun or a full ring. */
uint8_t uart_take_overrun(void);
void uart_write(const uint8_t *data, uint16_t len);

#endif

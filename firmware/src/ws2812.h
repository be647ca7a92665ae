/* WS2812/WS2812B output on one pin, bit-banged at 16 MHz with interrupts off. */
#ifndef BC_WS2812_H
#define BC_WS2812_H

#include <stdint.h>

/* Sends `count` bytes (already in the strip's colour order) to the strip. With `abortable`, the
 * output stops at the next byte boundary when a UART byte arrives, so the UART is never starved
 * for longer than one LED byte; returns 1 if it stopped early. Interrupts are restored on return;
 * the caller waits the latch time before the strip is guaranteed to show the data. */
uint8_t ws2812_send(const uint8_t *data, uint16_t count, uint8_t abortable);

#endif

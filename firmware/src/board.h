/* Board wiring and build-time settings (overridable from the Makefile). */
#ifndef BC_BOARD_H
#define BC_BOARD_H

#include <avr/io.h>

/* WS2812 data on PD6 = Arduino Nano/Uno pin D6, through a 330 ohm resistor. */
#define WS_PORT PORTD
#define WS_DDR DDRD
#define WS_BIT PD6

#ifndef LED_COUNT
#define LED_COUNT 38
#endif
#ifndef BAUD
#define BAUD 500000UL
#endif
/* Host silent this long (ms): show the fallback pattern so a dead link is visible at the table. */
#ifndef FALLBACK_MS
#define FALLBACK_MS 3000u
#endif
/* A frame that stops arriving mid-way is dropped (and NAKed) after this many ms. */
#define RX_TIMEOUT_MS 10u
/* Line low this long (us) latches WS2812B (280 us) and older WS2812 (50 us). */
#ifndef LATCH_US
#define LATCH_US 300u
#endif

/* The longest strip: its pixel buffer and the frame buffer (3 bytes an LED each) must leave the
 * stack room in the 2 KB of RAM. Every offered baud rate takes it (PROTOCOL.md). */
#define LED_COUNT_MAX 280u
#if LED_COUNT < 1 || LED_COUNT > LED_COUNT_MAX
#error "LED_COUNT must be 1 to 280: two buffers of 3 bytes an LED must fit the 2 KB of RAM with the stack"
#endif

#define FW_MAJOR 1u
#define FW_MINOR 0u

#endif

/*
 * The board's clock: Timer1 counting F_CPU/1024, one tick every 64 us, in hardware. It keeps
 * counting while interrupts are off to write the strip (9 ms for 280 LEDs), which a millisecond
 * interrupt would not: it loses every tick but one of such a stretch. 16 bits wrap after 4.19 s,
 * so every interval the firmware measures (differences of two readings) stays below that.
 */
#ifndef BC_CLOCK_H
#define BC_CLOCK_H

#include <avr/io.h>
#include <stdint.h>

#if F_CPU != 16000000UL
#error "clock.h counts 64 us ticks of a 16 MHz clock"
#endif

#define CLOCK_TICK_US 64u
/* ms as ticks, rounded up: "more than 10 ms" is never less. */
#define CLOCK_TICKS(ms) ((uint16_t)(((uint32_t)(ms) * 1000u + CLOCK_TICK_US - 1u) / CLOCK_TICK_US))

static inline void clock_init(void) {
    TCCR1A = 0;
    TCCR1B = _BV(CS12) | _BV(CS10); /* normal mode, F_CPU / 1024 */
}

/* The 16-bit read goes through the timer's TEMP register, which no interrupt of this firmware
 * touches, so it is whole without turning interrupts off. */
static inline uint16_t clock_now(void) { return TCNT1; }

#endif

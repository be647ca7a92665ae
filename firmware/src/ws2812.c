/*
 * WS2812 bit timing at F_CPU = 16 MHz: a bit is 20 cycles (1.25 us). The pin goes high at cycle 0;
 * a 0 bit falls at cycle 6 (0.375 us high), a 1 bit at cycle 11 (0.69 us high). Both are inside the
 * WS2812 and WS2812B windows (T0H 0.2-0.55 us, T1H 0.55-0.95 us, bit 1.25 us +-0.6 us). Between
 * bytes the low time grows by 11 cycles (0.69 us), far below the 50 us that would latch the strip.
 * The loop is written in assembly because the cycle count is the specification.
 */
#include <avr/io.h>
#include <avr/interrupt.h>

#include "ws2812.h"
#include "board.h"

#if F_CPU != 16000000UL
#error "ws2812.c counts cycles for a 16 MHz clock"
#endif

uint8_t ws2812_send(const uint8_t *data, uint16_t count, uint8_t abortable) {
    if (count == 0) return 0;
    uint8_t hi = WS_PORT | _BV(WS_BIT);
    uint8_t lo = WS_PORT & (uint8_t)~_BV(WS_BIT);
    uint8_t rx_mask = abortable ? _BV(RXC0) : 0;
    uint8_t byte, bits, status, aborted = 0;
    uint8_t sreg = SREG;
    cli();
    __asm__ volatile(
        "   ld   %[byte], %a[ptr]+      \n"
        "   ldi  %[bits], 8             \n"
        "1: out  %[port], %[hi]         \n" /* c0: rising edge */
        "   nop                         \n"
        "   nop                         \n"
        "   nop                         \n"
        "   nop                         \n"
        "   sbrs %[byte], 7             \n" /* c5 */
        "   out  %[port], %[lo]         \n" /* c6: falling edge of a 0 bit */
        "   lsl  %[byte]                \n" /* c7 */
        "   nop                         \n"
        "   nop                         \n"
        "   nop                         \n"
        "   out  %[port], %[lo]         \n" /* c11: falling edge of a 1 bit */
        "   nop                         \n"
        "   nop                         \n"
        "   nop                         \n"
        "   nop                         \n"
        "   nop                         \n"
        "   dec  %[bits]                \n" /* c17 */
        "   brne 1b                     \n" /* c18-19: next bit */
        "   sbiw %[count], 1            \n"
        "   breq 3f                     \n"
        "   lds  %[status], %[ucsra]    \n" /* a UART byte waiting? stop if abortable */
        "   and  %[status], %[rx_mask]  \n"
        "   brne 2f                     \n"
        "   ld   %[byte], %a[ptr]+      \n"
        "   ldi  %[bits], 8             \n"
        "   rjmp 1b                     \n"
        "2: ldi  %[aborted], 1          \n"
        "3:                             \n"
        : [byte] "=&r"(byte), [bits] "=&d"(bits), [status] "=&r"(status),
          [aborted] "+d"(aborted), [ptr] "+e"(data), [count] "+w"(count)
        : [port] "I"(_SFR_IO_ADDR(WS_PORT)), [hi] "r"(hi), [lo] "r"(lo),
          [ucsra] "n"(_SFR_MEM_ADDR(UCSR0A)), [rx_mask] "r"(rx_mask));
    SREG = sreg;
    return aborted;
}

/*
 * The receive interrupt empties the chip's 2-byte FIFO into a 32-byte ring as fast as bytes arrive;
 * the main loop parses at its own pace. A loss (DOR: bytes were lost before this one; FE: this one
 * is garbage; or the ring full) is marked on the ring slot where the stream resumes, so the main
 * loop drops exactly the frame the loss fell into, before that frame's CRC is even checked.
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
volatile uint8_t uart_rx_losses;
/* rx_lost[s]: a loss came before ring slot s. A byte a slot rather than a bit: the interrupt must
 * stay short and call nothing (a call makes it save every register), at 1 MBd most of all. */
static volatile uint8_t rx_lost[UART_RX_SIZE];

void uart_init(void) {
    UBRR0H = (uint8_t)(UBRR_VALUE >> 8);
    UBRR0L = (uint8_t)UBRR_VALUE;
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

/* The rare path of the interrupt (a loss, or the ring full): the loss is marked on slot head, where
 * the next stored byte goes. DOR: bytes were lost before this one, which is kept. FE: this one
 * is garbage. Ring full: there is no room for it. */
void uart_rx_loss(uint8_t errors, uint8_t byte) {
    uint8_t head = uart_rx_head;
    uint8_t next = (uint8_t)((head + 1u) & (UART_RX_SIZE - 1u));
    if (!rx_lost[head]) uart_rx_losses++;
    rx_lost[head] = 1;
    if ((errors & _BV(FE0)) || next == uart_rx_tail) return;
    uart_rx_buf[head] = byte;
    uart_rx_head = next;
}

/* The common path in assembly: at 1 MBd a byte lasts 160 cycles, and the C interrupt, saving 8
 * registers and r0/r1, took 80 of them. This one saves 4 and takes about 55; only a loss or a full
 * ring pays for the call into C (and the registers it clobbers). */
ISR(USART_RX_vect, ISR_NAKED) {
    __asm__ volatile(
        "   push r24                        \n"
        "   in   r24, __SREG__              \n"
        "   push r24                        \n"
        "   push r25                        \n"
        "   push r30                        \n"
        "   push r31                        \n"
        "   lds  r24, %[ucsra]              \n" /* flags of the byte at the FIFO head, before UDR0 */
        "   lds  r25, %[udr]                \n"
        "   andi r24, %[errors]             \n"
        "   brne 2f                         \n"
        "   lds  r30, uart_rx_head          \n"
        "   mov  r24, r30                   \n"
        "   subi r24, 0xFF                  \n" /* next = (head + 1) & mask */
        "   andi r24, %[mask]               \n"
        "   lds  r31, uart_rx_tail          \n"
        "   cp   r24, r31                   \n"
        "   breq 3f                         \n" /* ring full */
        "   ldi  r31, 0                     \n"
        "   subi r30, lo8(-(uart_rx_buf))   \n"
        "   sbci r31, hi8(-(uart_rx_buf))   \n"
        "   st   Z, r25                     \n"
        "   sts  uart_rx_head, r24          \n"
        "1: pop  r31                        \n"
        "   pop  r30                        \n"
        "   pop  r25                        \n"
        "   pop  r24                        \n"
        "   out  __SREG__, r24              \n"
        "   pop  r24                        \n"
        "   reti                            \n"
        "3: ldi  r24, 0                     \n" /* no error flags: the ring is full */
        "2: push r0                         \n"
        "   push r1                         \n"
        "   clr  r1                         \n"
        "   push r18                        \n"
        "   push r19                        \n"
        "   push r20                        \n"
        "   push r21                        \n"
        "   push r22                        \n"
        "   push r23                        \n"
        "   push r26                        \n"
        "   push r27                        \n"
        "   mov  r22, r25                   \n"
        "   call uart_rx_loss               \n" /* (errors in r24, byte in r22) */
        "   pop  r27                        \n"
        "   pop  r26                        \n"
        "   pop  r23                        \n"
        "   pop  r22                        \n"
        "   pop  r21                        \n"
        "   pop  r20                        \n"
        "   pop  r19                        \n"
        "   pop  r18                        \n"
        "   pop  r1                         \n"
        "   pop  r0                         \n"
        "   rjmp 1b                         \n"
        :
        : [ucsra] "n"(_SFR_MEM_ADDR(UCSR0A)), [udr] "n"(_SFR_MEM_ADDR(UDR0)),
          [errors] "M"(_BV(DOR0) | _BV(FE0)), [mask] "M"(UART_RX_SIZE - 1u));
}

uint8_t uart_take_loss(uint8_t slot) {
    uint8_t taken = 0;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        if (rx_lost[slot]) {
            rx_lost[slot] = 0;
            uart_rx_losses--;
            taken = 1;
        }
    }
    return taken;
}

void uart_write(const uint8_t *data, uint16_t len) {
    for (uint16_t i = 0; i < len; i++) {
        while (!(UCSR0A & _BV(UDRE0))) {
        }
        UDR0 = data[i];
    }
}

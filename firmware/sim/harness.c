/*
 * bc-sim: runs the real LED firmware ELF in simavr as if it sat on a USB serial port.
 *
 * - The UART is bridged to a pseudo-terminal by this program's own bridge, not simavr's uart_pty:
 *   bytes from the host go out at the real line rate (10 bits a byte), and the receiver is modelled
 *   as strictly as the ATmega328P's: a 2-byte FIFO plus the shift register. A byte whose start bit
 *   comes while three are unread is lost and reported as an overrun; as on the chip, the byte
 *   read next after the loss carries DOR in UCSR0A, so the firmware's own overrun path runs and
 *   can tell where in the stream the loss was. simavr's own 64-byte FIFO is only ever given one
 *   byte at a time.
 * - Bytes from the firmware reach the pty at the line rate too, so latency is realistic.
 * - The WS2812 data pin (PD6) is decoded from its edge timings into frames (each with the time the
 *   firmware took to write it, first rising edge to the end of the last bit); every timing fault
 *   (a high time outside the WS2812 windows, a gap inside a frame, a short latch, a reply sent
 *   before the strip latched) is reported.
 * - Opening the pty resets the chip and holds it in the "bootloader" for --boot-ms, like an
 *   Arduino's DTR auto-reset; SIGUSR1 resets it the same way (the reset button). SIGUSR2 hangs the
 *   firmware (its program counter is sent into the endless loop avr-libc ends a program with, as a
 *   runaway bug would), so the watchdog's reset can be seen; after a watchdog reset the harness
 *   goes on feeding the UART, as the host's bytes go on arriving at a real chip.
 * - Simulated time is kept in step with the wall clock, so throughput figures mean something.
 *
 * Everything observable goes to --events as JSON lines. Licence: GPL-3, see LICENSE here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_io.h>
#include <sim_regbit.h>

#define MAX_FRAME_BYTES 4096
#define HOST_Q 65536

static avr_t *avr;
static avr_uart_t *uart;
static avr_irq_t *uart_in;
static FILE *events;
static int master = -1;
static volatile sig_atomic_t want_reset, want_hang, want_exit;

static uint64_t cycles_per_bit;
static uint64_t latch_cycles;
static uint64_t cyc_280us, cyc_5us;

/* ---- events ---------------------------------------------------------------------------------- */

static double sim_us(void) { return (double)avr->cycle * 1e6 / (double)avr->frequency; }

static void emit(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(events, "{\"t_us\": %.1f, ", sim_us());
    vfprintf(events, fmt, ap);
    fputs("}\n", events);
    fflush(events);
    va_end(ap);
}

static unsigned long overruns, timing_faults, frames;

/* ---- WS2812 decoder -------------------------------------------------------------------------- */

static uint8_t frame_buf[MAX_FRAME_BYTES];
static uint32_t frame_bits;
static int in_frame;
static uint64_t first_rise, last_rise, last_fall, frame_end;
static int pin_level;

static void timing(const char *what, long cycles) {
    timing_faults++;
    emit("\"ev\": \"timing\", \"what\": \"%s\", \"cycles\": %ld", what, cycles);
}

static avr_cycle_count_t latch_cb(avr_t *a, avr_cycle_count_t when, void *param) {
    (void)a, (void)when, (void)param;
    if (!in_frame) return 0;
    in_frame = 0;
    frame_end = last_fall;
    frames++;
    if (frame_bits % 8) timing("partial byte", (long)(frame_bits % 8));
    uint32_t n = frame_bits / 8;
    /* The write ends one bit period after the last rising edge. */
    double write_us = (double)(last_rise + avr->frequency / 800000u - first_rise) * 1e6 / (double)avr->frequency;
    fprintf(events, "{\"t_us\": %.1f, \"ev\": \"frame\", \"bytes\": %u, \"write_us\": %.3f, \"hex\": \"",
            sim_us(), n, write_us);
    for (uint32_t i = 0; i < n; i++) fprintf(events, "%02x", frame_buf[i]);
    fputs("\"}\n", events);
    fflush(events);
    return 0;
}

static void pin_cb(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq, (void)param;
    int level = value ? 1 : 0;
    if (level == pin_level) return;
    pin_level = level;
    uint64_t now = avr->cycle;
    if (level) {
        if (!in_frame) {
            if (frame_end && now - frame_end < cyc_280us)
                timing("short latch", (long)(now - frame_end));
            in_frame = 1;
            first_rise = now;
            frame_bits = 0;
            memset(frame_buf, 0, sizeof frame_buf);
        } else if (now - last_fall > cyc_5us) {
            timing("gap in frame", (long)(now - last_fall));
        }
        avr_cycle_timer_cancel(avr, latch_cb, NULL);
        last_rise = now;
        return;
    }
    last_fall = now;
    if (!in_frame) return;
    long high = (long)(now - last_rise);
    int bit;
    if (high >= 4 && high <= 8) bit = 0;        /* 0.25-0.50 us */
    else if (high >= 9 && high <= 15) bit = 1;  /* 0.56-0.94 us */
    else {
        timing("high time", high);
        bit = high > 8;
    }
    if (frame_bits < MAX_FRAME_BYTES * 8) {
        if (bit) frame_buf[frame_bits / 8] |= (uint8_t)(0x80u >> (frame_bits % 8));
        frame_bits++;
    }
    avr_cycle_timer_register(avr, latch_cycles, latch_cb, NULL);
}

/* ---- UART: firmware to host ------------------------------------------------------------------ */

static uint8_t tx_q[4096];
static uint64_t tx_done[4096];
static unsigned tx_head, tx_tail;
static uint64_t tx_line_free;
static int slave_open;

static void uart_out_cb(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq, (void)param;
    uint64_t now = avr->cycle;
    if (in_frame || (frame_end && now - frame_end < cyc_280us && now >= frame_end))
        timing("reply before latch", (long)(now - frame_end));
    uint64_t start = tx_line_free > now ? tx_line_free : now;
    tx_line_free = start + 10 * cycles_per_bit;
    unsigned next = (tx_head + 1) % 4096;
    if (next == tx_tail) return;
    tx_q[tx_head] = (uint8_t)value;
    tx_done[tx_head] = tx_line_free;
    tx_head = next;
}

static void tx_flush(void) {
    while (tx_tail != tx_head && tx_done[tx_tail] <= avr->cycle) {
        /* Nobody listening (port closed): the bytes go nowhere, as on a real unplugged board. */
        if (slave_open && write(master, &tx_q[tx_tail], 1) < 0 && errno != EAGAIN) slave_open = 0;
        tx_tail = (tx_tail + 1) % 4096;
    }
}

/* ---- UART: host to firmware, with the chip's receiver model ---------------------------------- */

static uint8_t host_q[HOST_Q];
static uint64_t host_at[HOST_Q]; /* the cycle that matches the wall-clock time each byte was read */
static unsigned hq_head, hq_tail;
static int wire_busy;
static uint8_t wire_byte;
static uint64_t wire_start, wire_end, wire_free;
static int wire_checked;
static uint8_t pending[3];
static uint8_t pending_lost[3]; /* bytes were lost just before this one: it is read with DOR set */
static int npending;
static uint8_t wire_lost;       /* ... just before the byte now on the wire */

static int simavr_fifo_empty(void) { return uart->input.read == uart->input.write; }

static unsigned unread(void) { return (unsigned)npending + (simavr_fifo_empty() ? 0 : 1); }

static void rx_step(void) {
    uint64_t now = avr->cycle;
    if (!wire_busy && hq_tail != hq_head) {
        wire_byte = host_q[hq_tail];
        uint64_t at = host_at[hq_tail];
        hq_tail = (hq_tail + 1) % HOST_Q;
        wire_start = wire_free > now ? wire_free : now;
        if (at > wire_start) wire_start = at;
        wire_end = wire_start + 10 * cycles_per_bit;
        wire_free = wire_end;
        wire_busy = 1;
        wire_checked = 0;
    }
    if (wire_busy && !wire_checked && now >= wire_start) {
        wire_checked = 1;
        /* Start bit while the FIFO is full and the shift register holds a byte: that byte is lost. */
        if (unread() >= 3) {
            overruns++;
            npending--;
            wire_lost = 1;
            emit("\"ev\": \"overrun\", \"count\": %lu", overruns);
        }
        if (in_frame) emit("\"ev\": \"rx_in_show\"");
    }
    if (wire_busy && now >= wire_end) {
        wire_busy = 0;
        pending_lost[npending] = wire_lost;
        pending[npending++] = wire_byte;
        wire_lost = 0;
    }
    if (npending && simavr_fifo_empty()) {
        /* simavr waits cycles_per_byte before raising RXC; the byte is already whole here. */
        uart->cycles_per_byte = 16;
        avr_raise_irq(uart_in, pending[0]);
        /* After the raise: simavr clears DOR when a byte enters its empty FIFO, and refuses bytes
         * while DOR is set. Reading UDR0 clears it again, as on the chip. */
        if (pending_lost[0]) avr_regbit_setto(avr, uart->dor, 1);
        --npending;
        memmove(pending, pending + 1, (size_t)npending);
        memmove(pending_lost, pending_lost + 1, (size_t)npending);
    }
}

/* A reset empties the chip's receiver (FIFO and shift register); the line itself goes on. */
static void rx_reset_chip(void) {
    npending = 0;
    wire_lost = 0;
}

static void rx_clear(void) {
    hq_head = hq_tail = 0;
    wire_busy = 0;
    wire_free = 0;
    rx_reset_chip();
}

/* ---- pty ------------------------------------------------------------------------------------- */

/* Bytes from the host enter the line no earlier than the simulated time that matches the wall
 * clock when they were read. Normally that is now (the simulation keeps pace); when the simulator
 * has fallen behind (a busy machine), it is later, exactly as on a real line, so a slow simulator
 * never makes the host's bytes land in the middle of something they could not have overlapped. */
static void read_host(int keep, uint64_t at) {
    uint8_t buf[512];
    for (;;) {
        ssize_t n = read(master, buf, sizeof buf);
        if (n <= 0) return;
        for (ssize_t i = 0; keep && i < n; i++) {
            unsigned next = (hq_head + 1) % HOST_Q;
            if (next == hq_tail) break;
            host_q[hq_head] = buf[i];
            host_at[hq_head] = at;
            hq_head = next;
        }
    }
}

/* 1 when the slave side has been opened since the last call (POLLHUP cleared). */
static int check_open(void) {
    struct pollfd p = {master, POLLIN, 0};
    poll(&p, 1, 0);
    int open_now = !(p.revents & POLLHUP);
    int opened = open_now && !slave_open;
    slave_open = open_now;
    return opened;
}

static int open_pty(const char *link) {
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) || unlockpt(m)) return -1;
    const char *name = ptsname(m);
    struct termios t;
    tcgetattr(m, &t);
    cfmakeraw(&t);
    tcsetattr(m, TCSANOW, &t);
    /* Open and close the slave once so that "nobody has it open" reads as POLLHUP from now on. */
    int s = open(name, O_RDWR | O_NOCTTY);
    if (s >= 0) close(s);
    fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
    if (link) {
        unlink(link);
        if (symlink(name, link)) return -1;
    }
    fprintf(events, "{\"t_us\": 0, \"ev\": \"ready\", \"pty\": \"%s\"}\n", name);
    fflush(events);
    return m;
}

/* ---- time ------------------------------------------------------------------------------------ */

static double wall_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sleeps until the wall clock catches up with the simulation, or until the host writes: bytes
 * are then read at once instead of after the sleep, which would make them arrive late in
 * simulated time (the simulation never runs more than 0.1 ms ahead of the wall clock anyway). */
static void wait_for_host(double seconds) {
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    if (!slave_open) {
        nanosleep(&ts, NULL); /* a hung-up pty polls as readable: poll would not sleep */
        return;
    }
    struct pollfd p = {master, POLLIN, 0};
    ppoll(&p, 1, &ts, NULL);
}

static void on_signal(int sig) {
    if (sig == SIGUSR1) want_reset = 1;
    else if (sig == SIGUSR2) want_hang = 1;
    else want_exit = 1;
}

/* Sends the program counter into `rjmp .` (0xCFFF), the loop avr-libc's exit ends in: the main
 * loop stops and never resets the watchdog again, while the interrupts go on (they are enabled,
 * wherever the firmware was, so the hang is the same whenever it comes). */
static void hang(void) {
    for (uint32_t a = 0; a + 1 <= avr->flashend; a += 2) {
        if (avr->flash[a] == 0xFF && avr->flash[a + 1] == 0xCF) {
            avr->pc = a;
            avr->sreg[S_I] = 1;
            emit("\"ev\": \"hang\", \"pc\": %u", (unsigned)a);
            return;
        }
    }
    emit("\"ev\": \"hang\", \"pc\": null");
}

static void no_sleep(avr_t *a, avr_cycle_count_t how_long) { (void)a, (void)how_long; }

static void usage(void) {
    fprintf(stderr,
            "usage: bc-sim --elf FIRMWARE.elf --events EVENTS.jsonl [--link PTY_LINK] [--baud 500000]\n"
            "              [--boot-ms 1500] [--no-reset-on-open] [--latch-us 50]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *elf = NULL, *events_path = NULL, *link = NULL;
    long baud = 500000, boot_ms = 1500, latch_us = 50;
    int reset_on_open = 1;
    static struct option opts[] = {
        {"elf", required_argument, 0, 'e'},     {"events", required_argument, 0, 'o'},
        {"link", required_argument, 0, 'l'},    {"baud", required_argument, 0, 'b'},
        {"boot-ms", required_argument, 0, 'B'}, {"no-reset-on-open", no_argument, 0, 'n'},
        {"latch-us", required_argument, 0, 'L'}, {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'e': elf = optarg; break;
        case 'o': events_path = optarg; break;
        case 'l': link = optarg; break;
        case 'b': baud = atol(optarg); break;
        case 'B': boot_ms = atol(optarg); break;
        case 'n': reset_on_open = 0; break;
        case 'L': latch_us = atol(optarg); break;
        default: usage();
        }
    }
    if (!elf || !events_path) usage();
    events = fopen(events_path, "w");
    if (!events) {
        perror(events_path);
        return 2;
    }

    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw)) {
        fprintf(stderr, "bc-sim: cannot read %s\n", elf);
        return 2;
    }
    if (!fw.mmcu[0]) strcpy(fw.mmcu, "atmega328p");
    if (!fw.frequency) fw.frequency = 16000000;
    avr = avr_make_mcu_by_name(fw.mmcu);
    if (!avr) {
        fprintf(stderr, "bc-sim: unknown MCU %s\n", fw.mmcu);
        return 2;
    }
    avr_init(avr);
    avr->log = LOG_ERROR;
    avr_load_firmware(avr, &fw);
    avr->frequency = fw.frequency;
    avr->sleep = no_sleep;

    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (strcmp(io->kind, "uart") == 0 && ((avr_uart_t *)io)->name == '0') uart = (avr_uart_t *)io;
    if (!uart) {
        fprintf(stderr, "bc-sim: no UART0\n");
        return 2;
    }
    uint32_t flags = 0; /* no stdio echo, no usleep on status polls */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out_cb, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 6), pin_cb, NULL);

    cycles_per_bit = avr->frequency / (uint64_t)baud;
    latch_cycles = avr->frequency / 1000000u * (uint64_t)latch_us;
    cyc_280us = avr->frequency / 1000000u * 280u;
    cyc_5us = avr->frequency / 1000000u * 5u;

    master = open_pty(link);
    if (master < 0) {
        perror("bc-sim: pty");
        return 2;
    }
    signal(SIGUSR1, on_signal);
    signal(SIGUSR2, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);

    avr_run_t core_run = avr->run;
    double wall0 = wall_s();
    double hold_until = 0;
    unsigned long iter = 0, resets = 0;
    /* The host that started the board owns it: a host killed outright (SIGKILL, a crash) never sends the
     * SIGTERM that ends the harness, so the harness goes when its parent does instead of running on alone. */
    pid_t parent = getppid();
    double max_lag = 0;
    emit("\"ev\": \"boot\"");
    while (!want_exit) {
        if (hold_until) {
            /* In the bootloader: the application does not run and what arrives is eaten. */
            if (getppid() != parent) break;
            read_host(0, 0);
            check_open();
            double now = wall_s();
            if (now < hold_until) {
                usleep(200);
                continue;
            }
            wall0 += now - (wall0 + sim_us() * 1e-6);
            hold_until = 0;
            emit("\"ev\": \"boot\"");
        }
        if (want_hang) {
            want_hang = 0;
            hang();
        }
        /* simavr's watchdog resets the chip in the next avr_run, through a temporary run hook. */
        int watchdog = avr->run != core_run;
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            emit("\"ev\": \"crash\", \"state\": %d", state);
            break;
        }
        if (watchdog && avr->run == core_run) {
            /* The reset dropped every cycle timer, the strip decoder's latch timer with them. */
            resets++;
            in_frame = 0;
            rx_reset_chip();
            emit("\"ev\": \"reset\", \"cause\": \"watchdog\"");
        }
        rx_step();
        if (tx_tail != tx_head) tx_flush();
        if ((++iter & 511) == 0) {
            if ((iter & 0xFFFF) == 0 && getppid() != parent) {
                emit("\"ev\": \"orphaned\"");
                break;
            }
            int opened = check_open();
            if (want_reset || (opened && reset_on_open)) {
                const char *cause = want_reset ? "signal" : "open";
                want_reset = 0;
                resets++;
                avr_reset(avr);
                rx_clear();
                in_frame = 0;
                tx_head = tx_tail;
                emit("\"ev\": \"reset\", \"cause\": \"%s\"", cause);
                hold_until = wall_s() + (double)boot_ms * 1e-3;
                continue;
            }
            double wall = wall_s() - wall0;
            read_host(slave_open, (uint64_t)(wall * (double)avr->frequency));
            double ahead = sim_us() * 1e-6 - wall;
            if (ahead > 0.0001) wait_for_host(ahead);
            /* Behind the wall clock: the host may time out on a board that is merely slow. */
            if (-ahead > max_lag) max_lag = -ahead;
        }
    }
    /* WDTCSR (data address 0x60) as the firmware left it: the tests check the watchdog is armed. */
    emit("\"ev\": \"exit\", \"frames\": %lu, \"overruns\": %lu, \"timing_faults\": %lu, \"resets\": %lu, "
         "\"max_lag_ms\": %.1f, \"wdtcsr\": %u", frames, overruns, timing_faults, resets, max_lag * 1e3,
         (unsigned)avr->data[0x60]);
    if (link) unlink(link);
    return 0;
}

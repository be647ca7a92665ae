/*
 * Host unit tests of the firmware's protocol code (src/protocol.c, compiled with the host gcc),
 * driven by the shared vectors in protocol/vectors.json that the Python tests also check.
 * The vectors file keeps one object per line, so a line scanner replaces a JSON library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/protocol.h"

static int failures;
static int checks;

#define CHECK(cond, ...)                                   \
    do {                                                   \
        checks++;                                          \
        if (!(cond)) {                                     \
            failures++;                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                  \
            fputc('\n', stderr);                           \
        }                                                  \
    } while (0)

/* Copies the string value of "key" in a one-line JSON object into out; 0 if absent. */
static int get_str(const char *line, const char *key, char *out, size_t cap) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *s = strstr(line, pat);
    if (!s) return 0;
    s += strlen(pat);
    const char *e = strchr(s, '"');
    if (!e || (size_t)(e - s) >= cap) return 0;
    memcpy(out, s, (size_t)(e - s));
    out[e - s] = 0;
    return 1;
}

static long get_int(const char *line, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *s = strstr(line, pat);
    if (!s) {
        fprintf(stderr, "vector without %s: %s", key, line);
        exit(2);
    }
    return strtol(s + strlen(pat), NULL, 10);
}

static uint16_t unhex(const char *hex, uint8_t *out) {
    uint16_t n = 0;
    for (; hex[0] && hex[1]; hex += 2) {
        unsigned v;
        sscanf(hex, "%2x", &v);
        out[n++] = (uint8_t)v;
    }
    return n;
}

static void check_crc(const char *line) {
    char name[128], hex[256];
    uint8_t data[128];
    get_str(line, "name", name, sizeof name);
    get_str(line, "data", hex, sizeof hex);
    uint16_t n = unhex(hex, data);
    CHECK(bc_crc16(data, n) == (uint16_t)get_int(line, "crc"), "crc %s", name);
}

static void check_frame(const char *line) {
    char name[128], hex[2048], phex[2048];
    uint8_t want[1024], payload[1024], got[1024], buf[1024];
    get_str(line, "name", name, sizeof name);
    get_str(line, "bytes", hex, sizeof hex);
    get_str(line, "payload", phex, sizeof phex);
    uint16_t wn = unhex(hex, want), pn = unhex(phex, payload);
    uint8_t type = (uint8_t)get_int(line, "type"), seq = (uint8_t)get_int(line, "seq");

    uint16_t gn = bc_encode(got, type, seq, payload, pn);
    CHECK(gn == wn && memcmp(got, want, wn) == 0, "encode %s", name);

    bc_parser p;
    bc_parser_init(&p, buf, sizeof buf);
    int frames = 0;
    for (uint16_t i = 0; i < wn; i++) {
        bc_event ev = bc_parser_feed(&p, want[i]);
        CHECK(ev != BC_ERROR, "parse %s: error %d at byte %u", name, p.error, i);
        if (ev == BC_FRAME) {
            frames++;
            CHECK(i == wn - 1, "parse %s: frame before its last byte", name);
            CHECK(p.type == type && p.seq == seq && p.len == pn && memcmp(buf, payload, pn) == 0,
                  "parse %s: fields differ", name);
        }
    }
    CHECK(frames == 1, "parse %s: %d frames", name, frames);
}

static void check_stream(const char *line) {
    char name[128], hex[4096], expect[512], got[512] = "";
    uint8_t data[2048], buf[1024];
    get_str(line, "name", name, sizeof name);
    get_str(line, "stream", hex, sizeof hex);
    get_str(line, "expect", expect, sizeof expect);
    uint16_t n = unhex(hex, data);
    bc_parser p;
    bc_parser_init(&p, buf, (uint16_t)get_int(line, "max_len"));
    for (uint16_t i = 0; i < n; i++) {
        bc_event ev = bc_parser_feed(&p, data[i]);
        char item[32] = "";
        if (ev == BC_FRAME) snprintf(item, sizeof item, "F%02x:%u", p.type, p.seq);
        if (ev == BC_ERROR) snprintf(item, sizeof item, "E%u:%u", p.error, p.seq);
        if (item[0]) {
            if (got[0]) strcat(got, ",");
            strcat(got, item);
        }
    }
    CHECK(strcmp(got, expect) == 0, "stream %s: got \"%s\" want \"%s\"", name, got, expect);
}

static void check_command(const char *line) {
    char name[128], phex[512];
    uint8_t payload[256];
    get_str(line, "name", name, sizeof name);
    get_str(line, "payload", phex, sizeof phex);
    uint16_t n = unhex(phex, payload);
    uint8_t r = bc_check_command((uint8_t)get_int(line, "type"), payload, n,
                                 (uint16_t)get_int(line, "led_count"));
    CHECK(r == get_int(line, "reason"), "command %s: reason %u", name, r);
}

/* Behaviour the vectors cannot express: an abort drops the partial frame and the next one parses. */
static void check_abort(void) {
    uint8_t buf[32], frame[16];
    bc_parser p;
    bc_parser_init(&p, buf, sizeof buf);
    uint16_t n = bc_encode(frame, BC_PING, 42, NULL, 0);
    for (uint16_t i = 0; i < 3; i++) bc_parser_feed(&p, frame[i]);
    CHECK(bc_parser_busy(&p), "abort: parser should be mid-frame");
    CHECK(bc_parser_abort(&p, BC_E_TIMEOUT) == BC_ERROR && p.error == BC_E_TIMEOUT && p.seq == 42,
          "abort: reports the timeout with its seq");
    CHECK(bc_parser_abort(&p, BC_E_TIMEOUT) == BC_NONE, "abort: idle parser has nothing to drop");
    bc_event last = BC_NONE;
    for (uint16_t i = 0; i < n; i++) last = bc_parser_feed(&p, frame[i]);
    CHECK(last == BC_FRAME && p.seq == 42, "abort: next frame parses");
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "protocol/vectors.json";
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 2;
    }
    char line[8192];
    char section[32] = "";
    int vectors = 0;
    while (fgets(line, sizeof line, f)) {
        char key[32];
        if (sscanf(line, " \"%31[a-z]\": [", key) == 1) {
            strcpy(section, key);
            continue;
        }
        if (!strchr(line, '{') || strstr(line, "\"about\"")) continue;
        vectors++;
        if (strcmp(section, "crc") == 0) check_crc(line);
        else if (strcmp(section, "frames") == 0) check_frame(line);
        else if (strcmp(section, "streams") == 0) check_stream(line);
        else if (strcmp(section, "commands") == 0) check_command(line);
        else vectors--;
    }
    fclose(f);
    check_abort();
    CHECK(vectors >= 30, "only %d vectors read from %s", vectors, path);
    printf("%d vectors, %d checks, %d failures\n", vectors, checks, failures);
    return failures ? 1 : 0;
}

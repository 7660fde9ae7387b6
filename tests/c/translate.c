/* The C API test: run by tests/capi.rs, built with gcc against libspirv_lift.so and
 * against libspirv_lift.a.
 *
 *   translate GOOD.spv BAD.spv WORD OPCODE_NAME OPCODE RESULT_ID MESSAGE NOLOC.spv SPEC.spv
 *
 * GOOD.spv must translate (from bytes and from words, with several option sets, and from
 * several threads at once with identical output). BAD.spv must fail with the given error
 * fields; NOLOC.spv must fail with an error that has no word offset or opcode. SPEC.spv is
 * shaders/spec_constants.comp.spv, whose specialization constants are set. Every result's
 * error kind is checked (tests/c/options.c covers the kinds these modules cannot give).
 * Exit status 0 when every check passes; each failed check prints one line. */
#include "spirv_lift.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                      \
    do {                                                      \
        checks++;                                             \
        if (!(cond)) {                                        \
            failures++;                                       \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                     \
            fputc('\n', stderr);                              \
        }                                                     \
    } while (0)

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    if (!buf) {
        fputs("out of memory\n", stderr);
        exit(2);
    }
    *len = n;
    return buf;
}

struct job {
    const unsigned char *bytes;
    size_t len;
    const SpirvLiftOptions *options;
    char *text; /* malloc'd copy of the result */
};

static void *translate_job(void *arg) {
    struct job *j = arg;
    SpirvLiftResult *r = spirv_lift_translate_bytes(j->bytes, j->len, j->options);
    size_t n = 0;
    const char *text = spirv_lift_result_text(r, &n);
    if (text) {
        j->text = malloc(n + 1);
        memcpy(j->text, text, n + 1);
    }
    spirv_lift_result_free(r);
    return NULL;
}

static void check_good(const char *path) {
    size_t len;
    unsigned char *bytes = read_file(path, &len);

    /* Defaults (options NULL), from bytes. */
    SpirvLiftResult *r = spirv_lift_translate_bytes(bytes, len, NULL);
    CHECK(spirv_lift_result_ok(r), "%s: %s", path, spirv_lift_result_error_text(r, NULL));
    size_t n = 0;
    const char *text = spirv_lift_result_text(r, &n);
    CHECK(text != NULL && n == strlen(text), "text length %zu", n);
    CHECK(text && strstr(text, "define ") != NULL, "no function definition in the output");
    CHECK(text && strstr(text, "!mmra") != NULL, "no !mmra metadata by default");
    CHECK(spirv_lift_result_error_message(r, NULL) == NULL, "a successful result has an error");
    CHECK(spirv_lift_result_error_word(r) == -1, "a successful result has an error word");
    CHECK(spirv_lift_result_error_kind(r) == SPIRV_LIFT_ERROR_KIND_NONE,
          "a successful result has error kind %u", (unsigned)spirv_lift_result_error_kind(r));

    /* The same module as host-endian words (the corpus is little-endian). */
    size_t count = len / 4;
    uint32_t *words = malloc(count * sizeof *words);
    for (size_t i = 0; i < count; i++) {
        words[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 |
                   (uint32_t)bytes[4 * i + 2] << 16 | (uint32_t)bytes[4 * i + 3] << 24;
    }
    SpirvLiftResult *rw = spirv_lift_translate_words(words, count, NULL);
    const char *text_w = spirv_lift_result_text(rw, NULL);
    CHECK(text && text_w && strcmp(text, text_w) == 0, "words and bytes translate differently");
    spirv_lift_result_free(rw);
    free(words);

    /* Options: no MMRA, no convergence, amdgcn. */
    SpirvLiftOptions *o = spirv_lift_options_new();
    CHECK(spirv_lift_options_set_mmra(o, false), "set_mmra refused");
    CHECK(spirv_lift_options_set_convergence(o, false), "set_convergence refused");
    CHECK(spirv_lift_options_set_target(o, SPIRV_LIFT_TARGET_AMDGCN), "set_target refused");
    CHECK(!spirv_lift_options_set_target(o, 7), "an unknown target was accepted");
    SpirvLiftResult *ro = spirv_lift_translate_bytes(bytes, len, o);
    const char *text_o = spirv_lift_result_text(ro, NULL);
    CHECK(text_o != NULL, "%s", spirv_lift_result_error_text(ro, NULL));
    CHECK(text_o && strstr(text_o, "!mmra") == NULL, "!mmra with mmra off");
    CHECK(text_o && strstr(text_o, "convergencectrl") == NULL, "tokens with convergence off");
    CHECK(text_o && strstr(text_o, "amdgcn-amd-amdhsa") != NULL, "not the amdgcn triple");
    spirv_lift_result_free(ro);

    /* Four threads translating at once, sharing one options handle: same text. */
    struct job jobs[4];
    pthread_t threads[4];
    SpirvLiftOptions *defaults = spirv_lift_options_new();
    for (int i = 0; i < 4; i++) {
        jobs[i] = (struct job){bytes, len, defaults, NULL};
        CHECK(pthread_create(&threads[i], NULL, translate_job, &jobs[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        CHECK(jobs[i].text && text && strcmp(jobs[i].text, text) == 0,
              "thread %d produced different text", i);
        free(jobs[i].text);
    }
    spirv_lift_options_free(defaults);
    spirv_lift_options_free(o);
    spirv_lift_result_free(r);
    free(bytes);
}

static void check_bad(const char *path, long long word, const char *opcode_name, long long opcode,
                      unsigned long result_id, const char *message) {
    size_t len;
    unsigned char *bytes = read_file(path, &len);
    SpirvLiftResult *r = spirv_lift_translate_bytes(bytes, len, NULL);
    CHECK(!spirv_lift_result_ok(r), "%s translated", path);
    CHECK(spirv_lift_result_error_kind(r) == SPIRV_LIFT_ERROR_KIND_MALFORMED, "kind %u",
          (unsigned)spirv_lift_result_error_kind(r));
    size_t n = 7;
    CHECK(spirv_lift_result_text(r, &n) == NULL && n == 0, "a failed result has text");
    const char *msg = spirv_lift_result_error_message(r, &n);
    CHECK(msg && strcmp(msg, message) == 0 && n == strlen(message), "message \"%s\", want \"%s\"",
          msg ? msg : "(null)", message);
    CHECK(spirv_lift_result_error_word(r) == word, "word %lld, want %lld",
          (long long)spirv_lift_result_error_word(r), word);
    const char *name = spirv_lift_result_error_opcode_name(r);
    CHECK(name && strcmp(name, opcode_name) == 0, "opcode name %s, want %s",
          name ? name : "(null)", opcode_name);
    CHECK(spirv_lift_result_error_opcode(r) == opcode, "opcode %lld, want %lld",
          (long long)spirv_lift_result_error_opcode(r), opcode);
    CHECK(spirv_lift_result_error_result_id(r) == result_id, "result id %lu, want %lu",
          (unsigned long)spirv_lift_result_error_result_id(r), result_id);
    const char *full = spirv_lift_result_error_text(r, NULL);
    CHECK(full && strstr(full, message) != NULL && strstr(full, opcode_name) != NULL,
          "full text \"%s\"", full ? full : "(null)");
    spirv_lift_result_free(r);
    free(bytes);
}

static void check_no_location(const char *path) {
    size_t len;
    unsigned char *bytes = read_file(path, &len);
    SpirvLiftResult *r = spirv_lift_translate_bytes(bytes, len, NULL);
    CHECK(!spirv_lift_result_ok(r), "%s translated", path);
    CHECK(spirv_lift_result_error_message(r, NULL) != NULL, "no message");
    CHECK(spirv_lift_result_error_word(r) == -1, "word %lld, want none",
          (long long)spirv_lift_result_error_word(r));
    CHECK(spirv_lift_result_error_opcode_name(r) == NULL, "an opcode name without a location");
    CHECK(spirv_lift_result_error_opcode(r) == -1, "an opcode without a location");
    CHECK(spirv_lift_result_error_kind(r) == SPIRV_LIFT_ERROR_KIND_MALFORMED, "kind %u",
          (unsigned)spirv_lift_result_error_kind(r));
    spirv_lift_result_free(r);
    free(bytes);
}

/* Translates `bytes` with SpecId `id` set to `value` (and SpecId 0 to 64). */
static SpirvLiftResult *translate_spec(const unsigned char *bytes, size_t len, uint32_t id,
                                       const char *value) {
    SpirvLiftOptions *o = spirv_lift_options_new();
    CHECK(spirv_lift_options_set_spec_constant(o, 0, "64"), "set_spec_constant refused");
    CHECK(spirv_lift_options_set_spec_constant(o, id, value), "set_spec_constant refused");
    SpirvLiftResult *r = spirv_lift_translate_bytes(bytes, len, o);
    spirv_lift_options_free(o);
    return r;
}

static void check_spec(const char *path) {
    size_t len;
    unsigned char *bytes = read_file(path, &len);

    /* Defaults: local_size_x = 32, TAPS (SpecId 1) = 4, with a warning for the array. */
    SpirvLiftResult *r = spirv_lift_translate_bytes(bytes, len, NULL);
    const char *text = spirv_lift_result_text(r, NULL);
    CHECK(text && strstr(text, "\"hlsl.numthreads\"=\"32,1,1\"") != NULL, "default size");
    CHECK(text && strstr(text, "alloca [4 x float]") != NULL, "default array length");
    CHECK(spirv_lift_result_warning_count(r) == 1, "%zu warnings by default",
          spirv_lift_result_warning_count(r));
    spirv_lift_result_free(r);

    /* Set: the size, the array length; the array's warning is gone. */
    r = translate_spec(bytes, len, 1, "6");
    text = spirv_lift_result_text(r, NULL);
    CHECK(text && strstr(text, "\"hlsl.numthreads\"=\"64,1,1\"") != NULL, "%s",
          text ? "size not set" : spirv_lift_result_error_text(r, NULL));
    CHECK(text && strstr(text, "alloca [6 x float]") != NULL, "array length not set");
    CHECK(spirv_lift_result_warning_count(r) == 0, "%zu warnings with TAPS set",
          spirv_lift_result_warning_count(r));
    spirv_lift_result_free(r);

    /* A value the type cannot hold: located at the constant, naming the SpecId. */
    r = translate_spec(bytes, len, 1, "1.5");
    const char *msg = spirv_lift_result_error_message(r, NULL);
    static const char not_int[] = "specialization constant 1: value `1.5` is not an integer";
    CHECK(msg && strncmp(msg, not_int, strlen(not_int)) == 0, "message %s", msg ? msg : "(null)");
    const char *name = spirv_lift_result_error_opcode_name(r);
    CHECK(name && strcmp(name, "OpSpecConstant") == 0, "opcode %s", name ? name : "(null)");
    CHECK(spirv_lift_result_error_word(r) > 5, "no word offset");
    CHECK(spirv_lift_result_error_kind(r) == SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT, "kind %u",
          (unsigned)spirv_lift_result_error_kind(r));
    spirv_lift_result_free(r);

    /* A SpecId the module does not have: a whole-module error. */
    r = translate_spec(bytes, len, 99, "1");
    msg = spirv_lift_result_error_message(r, NULL);
    CHECK(msg && strcmp(msg, "specialization constant 99: the module has no specialization "
                             "constant with SpecId 99") == 0,
          "message %s", msg ? msg : "(null)");
    CHECK(spirv_lift_result_error_word(r) == -1, "a word offset for a missing SpecId");
    CHECK(spirv_lift_result_error_kind(r) == SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT, "kind %u",
          (unsigned)spirv_lift_result_error_kind(r));
    spirv_lift_result_free(r);

    SpirvLiftOptions *o = spirv_lift_options_new();
    CHECK(!spirv_lift_options_set_spec_constant(o, 1, NULL), "a NULL value was accepted");
    CHECK(!spirv_lift_options_set_spec_constant(NULL, 1, "1"), "NULL options accepted");
    spirv_lift_options_free(o);
    free(bytes);
}

static void check_text(void) {
    static const char good[] =
        "OpCapability Shader\n"
        "OpMemoryModel Logical GLSL450\n"
        "OpEntryPoint GLCompute %main \"main\"\n"
        "OpExecutionMode %main LocalSize 1 1 1\n"
        "%void = OpTypeVoid\n"
        "%fn = OpTypeFunction %void\n"
        "%main = OpFunction %void None %fn\n"
        "%entry = OpLabel\n"
        "OpReturn\n"
        "OpFunctionEnd\n";
    SpirvLiftResult *r = spirv_lift_translate_text(good, strlen(good), NULL);
    const char *text = spirv_lift_result_text(r, NULL);
    CHECK(text && strstr(text, "define void @main()") != NULL, "%s",
          spirv_lift_result_error_text(r, NULL));
    spirv_lift_result_free(r);

    static const char bad[] = "OpCapability Shader\n  %x = OpNope\n";
    r = spirv_lift_translate_text(bad, strlen(bad), NULL);
    const char *msg = spirv_lift_result_error_text(r, NULL);
    CHECK(msg && strcmp(msg, "line 2, column 8: unknown opcode `OpNope`") == 0, "message %s",
          msg ? msg : "(null)");
    CHECK(spirv_lift_result_error_word(r) == -1, "an assembly error has a word offset");
    CHECK(spirv_lift_result_error_kind(r) == SPIRV_LIFT_ERROR_KIND_MALFORMED, "kind %u",
          (unsigned)spirv_lift_result_error_kind(r));
    spirv_lift_result_free(r);
}

static void check_null_pointers(void) {
    SpirvLiftResult *r = spirv_lift_translate_words(NULL, 5, NULL);
    CHECK(r != NULL && !spirv_lift_result_ok(r), "NULL words translated");
    const char *msg = spirv_lift_result_error_message(r, NULL);
    CHECK(msg && strcmp(msg, "words is NULL") == 0, "message %s", msg ? msg : "(null)");
    CHECK(spirv_lift_result_error_kind(r) == SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT, "kind %u",
          (unsigned)spirv_lift_result_error_kind(r));
    spirv_lift_result_free(r);
    r = spirv_lift_translate_bytes(NULL, 4, NULL);
    CHECK(spirv_lift_result_error_kind(r) == SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT, "kind %u",
          (unsigned)spirv_lift_result_error_kind(r));
    spirv_lift_result_free(r);
    r = spirv_lift_translate_text(NULL, 4, NULL);
    CHECK(spirv_lift_result_error_kind(r) == SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT, "kind %u",
          (unsigned)spirv_lift_result_error_kind(r));
    spirv_lift_result_free(r);
    CHECK(spirv_lift_result_error_kind(NULL) == SPIRV_LIFT_ERROR_KIND_NONE, "NULL result kind");
    CHECK(!spirv_lift_result_ok(NULL), "NULL result is ok");
    CHECK(spirv_lift_result_text(NULL, NULL) == NULL, "NULL result has text");
    CHECK(spirv_lift_result_error_word(NULL) == -1, "NULL result has a word");
    CHECK(spirv_lift_result_warning_count(NULL) == 0, "NULL result has warnings");
    CHECK(!spirv_lift_options_set_mmra(NULL, true), "NULL options accepted");
    CHECK(!spirv_lift_options_set_backend_workarounds(NULL, true), "NULL options accepted");
    CHECK(!spirv_lift_options_set_spec_constant_bool(NULL, 1, true), "NULL options accepted");
    CHECK(!spirv_lift_options_set_spec_constant_int(NULL, 1, 1), "NULL options accepted");
    CHECK(!spirv_lift_options_set_spec_constant_uint(NULL, 1, 1), "NULL options accepted");
    CHECK(!spirv_lift_options_set_spec_constant_float(NULL, 1, 1.0), "NULL options accepted");
    CHECK(!spirv_lift_options_set_spec_constant_bits(NULL, 1, 1), "NULL options accepted");
    spirv_lift_options_free(NULL);
    spirv_lift_result_free(NULL);
    const char *want = getenv("SPIRV_LIFT_EXPECTED_VERSION");
    CHECK(want && strcmp(spirv_lift_version(), want) == 0, "version %s, want %s",
          spirv_lift_version(), want ? want : "(unset)");
}

int main(int argc, char **argv) {
    if (argc != 10) {
        fprintf(stderr, "usage: %s GOOD BAD WORD OPNAME OPCODE RESULT_ID MESSAGE NOLOC SPEC\n",
                argv[0]);
        return 2;
    }
    check_good(argv[1]);
    check_bad(argv[2], atoll(argv[3]), argv[4], atoll(argv[5]), strtoul(argv[6], NULL, 10),
              argv[7]);
    check_no_location(argv[8]);
    check_spec(argv[9]);
    check_text();
    check_null_pointers();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}

/* Every option setter and the error kind, from C: run by tests/capi.rs, which compares
 * the output with the command line's for the same flags.
 *
 *   options IN OUT [SETTING...]
 *
 * IN is a SPIR-V binary, or SPIR-V assembly when it ends in `.spvasm`. Each SETTING calls
 * one setter on the options before translating:
 *   target=generic|amdgcn  mmra=0|1  convergence=0|1  workarounds=0|1  threads=N
 *   spec=ID:TEXT  spec-bool=ID:0|1  spec-int=ID:N  spec-uint=ID:N  spec-float=ID:X
 *   spec-bits=ID:N         (N in decimal or 0x hex)
 * Prints the error kind's name (NONE, MALFORMED, UNSUPPORTED, LIMIT, INTERNAL,
 * INVALID_ARGUMENT) on the first line of standard output; on success writes the IR to
 * OUT and exits 0, on failure prints the error text on the second line and exits 1.
 * Exits 2 on a usage error, a refused setter or an inconsistent result. */
#include "spirv_lift.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0, got;
    unsigned char *buf = malloc(cap);
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

static const char *kind_name(SpirvLiftErrorKind kind) {
    switch (kind) {
    case SPIRV_LIFT_ERROR_KIND_NONE:
        return "NONE";
    case SPIRV_LIFT_ERROR_KIND_MALFORMED:
        return "MALFORMED";
    case SPIRV_LIFT_ERROR_KIND_UNSUPPORTED:
        return "UNSUPPORTED";
    case SPIRV_LIFT_ERROR_KIND_LIMIT:
        return "LIMIT";
    case SPIRV_LIFT_ERROR_KIND_INTERNAL:
        return "INTERNAL";
    case SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT:
        return "INVALID_ARGUMENT";
    default:
        return "UNKNOWN";
    }
}

static void usage_error(const char *what, const char *setting) {
    fprintf(stderr, "options: %s: %s\n", what, setting);
    exit(2);
}

/* `name=ID:VALUE`: the id, and the value text after the colon. */
static uint32_t spec_id(const char *arg, const char *setting, const char **value) {
    char *end;
    unsigned long id = strtoul(arg, &end, 10);
    if (end == arg || *end != ':') {
        usage_error("want ID:VALUE", setting);
    }
    *value = end + 1;
    return (uint32_t)id;
}

static void apply(SpirvLiftOptions *o, const char *setting) {
    const char *eq = strchr(setting, '=');
    if (!eq) {
        usage_error("want NAME=VALUE", setting);
    }
    size_t n = (size_t)(eq - setting);
    const char *arg = eq + 1;
    const char *value;
    bool ok;
    if (strncmp(setting, "target", n) == 0 && n == 6) {
        uint32_t t = strcmp(arg, "amdgcn") == 0    ? SPIRV_LIFT_TARGET_AMDGCN
                     : strcmp(arg, "host") == 0    ? SPIRV_LIFT_TARGET_HOST
                     : strcmp(arg, "generic") == 0 ? SPIRV_LIFT_TARGET_GENERIC
                                                   : (uint32_t)atoi(arg);
        ok = spirv_lift_options_set_target(o, t);
    } else if (strncmp(setting, "mmra", n) == 0 && n == 4) {
        ok = spirv_lift_options_set_mmra(o, atoi(arg) != 0);
    } else if (strncmp(setting, "convergence", n) == 0 && n == 11) {
        ok = spirv_lift_options_set_convergence(o, atoi(arg) != 0);
    } else if (strncmp(setting, "threads", n) == 0 && n == 7) {
        ok = spirv_lift_options_set_threads(o, (size_t)strtoull(arg, NULL, 0));
    } else if (strncmp(setting, "workarounds", n) == 0 && n == 11) {
        ok = spirv_lift_options_set_backend_workarounds(o, atoi(arg) != 0);
    } else if (strncmp(setting, "spec", n) == 0 && n == 4) {
        uint32_t id = spec_id(arg, setting, &value);
        ok = spirv_lift_options_set_spec_constant(o, id, value);
    } else if (strncmp(setting, "spec-bool", n) == 0 && n == 9) {
        uint32_t id = spec_id(arg, setting, &value);
        ok = spirv_lift_options_set_spec_constant_bool(o, id, atoi(value) != 0);
    } else if (strncmp(setting, "spec-int", n) == 0 && n == 8) {
        uint32_t id = spec_id(arg, setting, &value);
        ok = spirv_lift_options_set_spec_constant_int(o, id, strtoll(value, NULL, 0));
    } else if (strncmp(setting, "spec-uint", n) == 0 && n == 9) {
        uint32_t id = spec_id(arg, setting, &value);
        ok = spirv_lift_options_set_spec_constant_uint(o, id, strtoull(value, NULL, 0));
    } else if (strncmp(setting, "spec-float", n) == 0 && n == 10) {
        uint32_t id = spec_id(arg, setting, &value);
        ok = spirv_lift_options_set_spec_constant_float(o, id, strtod(value, NULL));
    } else if (strncmp(setting, "spec-bits", n) == 0 && n == 9) {
        uint32_t id = spec_id(arg, setting, &value);
        ok = spirv_lift_options_set_spec_constant_bits(o, id, strtoull(value, NULL, 0));
    } else {
        usage_error("unknown setting", setting);
        return;
    }
    if (!ok) {
        usage_error("setter refused", setting);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s IN OUT [SETTING...]\n", argv[0]);
        return 2;
    }
    SpirvLiftOptions *o = spirv_lift_options_new();
    for (int i = 3; i < argc; i++) {
        apply(o, argv[i]);
    }
    size_t len;
    unsigned char *input = read_file(argv[1], &len);
    size_t name_len = strlen(argv[1]);
    SpirvLiftResult *r =
        name_len > 7 && strcmp(argv[1] + name_len - 7, ".spvasm") == 0
            ? spirv_lift_translate_text((const char *)input, len, o)
            : spirv_lift_translate_bytes(input, len, o);
    spirv_lift_options_free(o);
    free(input);

    SpirvLiftErrorKind kind = spirv_lift_result_error_kind(r);
    printf("%s\n", kind_name(kind));
    int status;
    if (spirv_lift_result_ok(r)) {
        size_t n = 0;
        const char *text = spirv_lift_result_text(r, &n);
        FILE *out = fopen(argv[2], "wb");
        if (kind != SPIRV_LIFT_ERROR_KIND_NONE || !text || !out || fwrite(text, 1, n, out) != n ||
            fclose(out) != 0) {
            fprintf(stderr, "options: cannot write %s, or kind %u on success\n", argv[2],
                    (unsigned)kind);
            status = 2;
        } else {
            status = 0;
        }
    } else {
        const char *error = spirv_lift_result_error_text(r, NULL);
        printf("%s\n", error ? error : "(no error text)");
        status = kind == SPIRV_LIFT_ERROR_KIND_NONE || !error ? 2 : 1;
    }
    spirv_lift_result_free(r);
    return status;
}

/* lift FILE.spv: translates FILE.spv for AMDGPU and prints the LLVM IR; on failure
 * prints "error (KIND): TEXT" on standard error and exits 1. Built by CMakeLists.txt
 * against an installed spirv-lift (tests/capi.rs). */
#include <spirv_lift.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.spv\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    static unsigned char bytes[1 << 22];
    size_t len = fread(bytes, 1, sizeof bytes, f);
    fclose(f);

    SpirvLiftOptions *options = spirv_lift_options_new();
    spirv_lift_options_set_target(options, SPIRV_LIFT_TARGET_AMDGCN);
    SpirvLiftResult *result = spirv_lift_translate_bytes(bytes, len, options);
    spirv_lift_options_free(options);
    int status = 0;
    if (spirv_lift_result_ok(result)) {
        size_t n = 0;
        const char *text = spirv_lift_result_text(result, &n);
        fwrite(text, 1, n, stdout);
    } else {
        const char *kind = "other";
        switch (spirv_lift_result_error_kind(result)) {
        case SPIRV_LIFT_ERROR_KIND_MALFORMED:
            kind = "malformed";
            break;
        case SPIRV_LIFT_ERROR_KIND_UNSUPPORTED:
            kind = "unsupported";
            break;
        case SPIRV_LIFT_ERROR_KIND_LIMIT:
            kind = "limit";
            break;
        default:
            break;
        }
        fprintf(stderr, "error (%s): %s\n", kind, spirv_lift_result_error_text(result, NULL));
        status = 1;
    }
    spirv_lift_result_free(result);
    printf("spirv-lift %s\n", spirv_lift_version());
    return status;
}

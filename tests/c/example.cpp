// Translate a SPIR-V file for AMDGPU and print the LLVM IR (README "C and C++").
#include "spirv_lift.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string_view>
#include <vector>

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: example FILE.spv\n";
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<unsigned char> bytes(std::istreambuf_iterator<char>(in), {});

    std::unique_ptr<SpirvLiftOptions, decltype(&spirv_lift_options_free)> options(
        spirv_lift_options_new(), spirv_lift_options_free);
    spirv_lift_options_set_target(options.get(), SPIRV_LIFT_TARGET_AMDGCN);

    std::unique_ptr<SpirvLiftResult, decltype(&spirv_lift_result_free)> result(
        spirv_lift_translate_bytes(bytes.data(), bytes.size(), options.get()),
        spirv_lift_result_free);
    if (!spirv_lift_result_ok(result.get())) {
        // e.g. "word 264 (OpAtomicIAdd %46): result type %10 is not the pointee type ..."
        std::cerr << "error: " << argv[1] << ": "
                  << spirv_lift_result_error_text(result.get(), nullptr) << '\n';
        return 1;
    }
    size_t len = 0;
    const char *text = spirv_lift_result_text(result.get(), &len);
    std::cout << std::string_view(text, len);
    return 0;
}

; LLVM's AMDGPU atomic optimizer (AMDGPUAtomicOptimizer.cpp, run by llc from -O1) turns an
; atomicrmw whose pointer is uniform into one atomic per wave, built from
; llvm.amdgcn.ballot / mbcnt / readlane calls that carry no "convergencectrl" bundle. In a
; function that uses convergence control tokens (here for a barrier) the IR verifier then
; rejects its output:
;   llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 amdgpu_atomic_optimizer_tokens.ll
; fails with "Cannot mix controlled and uncontrolled convergence in the same function"
; (llc-19 too); -amdgpu-atomic-optimizer-strategy=None compiles it. spirv-lift's amdgcn
; profile keeps such atomics out of the pass (src/lower/amdgcn.rs, shield_atomics).
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %p, i32 %v) convergent {
entry:
  %tok = call token @llvm.experimental.convergence.entry()
  call void @llvm.amdgcn.s.barrier() [ "convergencectrl"(token %tok) ]
  %old = atomicrmw add ptr addrspace(1) %p, i32 %v syncscope("agent") monotonic, align 4
  ret void
}

declare token @llvm.experimental.convergence.entry()
declare void @llvm.amdgcn.s.barrier() convergent

; A module with a bit of every construct LLVM 22 prints: `spirv-lift verify` must
; read it (tests/verify_garbage.rs checks that opt-22 accepts it too, and mutates it).
source_filename = "constructs.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.Pair = type { i32, float }
%packed = type <{ i8, i32 }>
%opaque.T = type opaque
%1 = type { ptr, [4 x i16] }
%struct.Recursive = type { ptr, %struct.Pair }

$comdat.any = comdat any
$comdat.large = comdat largest

@counter = dso_local global i32 0, align 4
@table = internal constant [3 x i32] [i32 1, i32 2, i32 3], align 4
@str = private unnamed_addr constant [6 x i8] c"hello\00", align 1
@pair = global %struct.Pair { i32 7, float 1.500000e+00 }, section ".data.pair", align 8
@packed.init = global %packed <{ i8 1, i32 2 }>
@vec = global <4 x float> <float 1.000000e+00, float 2.000000e+00, float 0x3FB99999A0000000, float -0.000000e+00>
@zero = weak_odr global [16 x i64] zeroinitializer, comdat($comdat.any)
@ptrs = global [2 x ptr] [ptr @counter, ptr getelementptr inbounds ([3 x i32], ptr @table, i64 0, i64 1)]
@as1 = addrspace(1) global i32 5, !dbg.foo !0
@tls = thread_local(initialexec) global i32 0
@ext = external global i32
@weakext = extern_weak global i8
@c1 = linkonce_odr hidden constant i64 ptrtoint (ptr @counter to i64), comdat($comdat.large)
@c2 = global i64 add (i64 ptrtoint (ptr @counter to i64), i64 8)
@u = global { i32, ptr } { i32 undef, ptr poison }
@h = global half 0xH3C00
@d = global double 0x7FF8000000000000
@big = global i128 170141183460469231731687303715884105727
@neg = global i8 -128
@numbered0 = global i32 0
@0 = private global i32 1
@alias = alias i32, ptr @counter
@ialias = internal alias i32, getelementptr (i8, ptr @counter, i64 0)
@llvm.used = appending global [1 x ptr] [ptr @counter], section "llvm.metadata"

declare i32 @printf(ptr noundef, ...) #0
declare void @callee(i32 signext, ptr nocapture readonly, ptr byval(%struct.Pair) align 8) nounwind
declare noalias ptr @malloc(i64) allockind("alloc,uninitialized") allocsize(0)
declare float @llvm.fma.f32(float, float, float)
declare <4 x float> @llvm.fabs.v4f32(<4 x float>)
declare token @llvm.experimental.convergence.entry()
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly, ptr noalias readonly, i64, i1 immarg)
declare i32 @__gxx_personality_v0(...)
declare void @may_throw() memory(none) willreturn
declare spir_func void @spirv_builtin(target("spirv.Image", float, 1, 0, 0, 0, 1, 0))
declare range(i32 0, 10) i32 @ranged(i32 range(i32 -1, 5) %x) nofree nosync
declare void @mem(ptr captures(none) %p, ptr dereferenceable(16) %q) memory(argmem: readwrite, inaccessiblemem: read)

define dso_local i32 @arith(i32 %a, i32 %b, <4 x i32> %v, float %f) #1 {
entry:
  %add = add nsw i32 %a, %b
  %sub = sub nuw nsw i32 %add, 1
  %mul = mul i32 %sub, %b
  %shl = shl nuw i32 %mul, 2
  %udiv = udiv exact i32 %shl, 4
  %sdiv = sdiv i32 %udiv, 3
  %urem = urem i32 %sdiv, 7
  %srem = srem i32 %urem, -7
  %lshr = lshr exact i32 %srem, 1
  %ashr = ashr i32 %lshr, 1
  %and = and i32 %ashr, 255
  %or = or disjoint i32 %and, 256
  %xor = xor i32 %or, -1
  %vadd = add <4 x i32> %v, splat (i32 1)
  %fa = fadd fast float %f, 1.000000e+00
  %fs = fsub nnan ninf float %fa, 2.5
  %fm = fmul contract float %fs, %fs
  %fd = fdiv arcp float %fm, 3.0
  %fr = frem float %fd, 2.0
  %fn = fneg nsz float %fr
  %cmp = icmp samesign ult i32 %xor, 10
  %fcmp = fcmp ord float %fn, 0.0
  %both = and i1 %cmp, %fcmp
  %vcmp = icmp eq <4 x i32> %vadd, zeroinitializer
  %sel = select i1 %both, i32 %xor, i32 0
  %vsel = select <4 x i1> %vcmp, <4 x i32> %v, <4 x i32> %vadd
  %fsel = select nnan i1 %both, float %fn, float 0.0
  %t = trunc nuw i32 %sel to i8
  %z = zext nneg i8 %t to i64
  %s = sext i8 %t to i16
  %ft = fptrunc float %fsel to half
  %fe = fpext half %ft to double
  %ui = uitofp nneg i16 %s to float
  %si = sitofp i64 %z to double
  %fu = fptoui double %si to i32
  %fsi = fptosi double %fe to i32
  %p = inttoptr i64 %z to ptr
  %pi = ptrtoint ptr %p to i64
  %bc = bitcast <4 x i32> %vsel to <2 x i64>
  %asc = addrspacecast ptr %p to ptr addrspace(1)
  %fr2 = freeze i32 %fsi
  %r = add i32 %fr2, %fu
  ret i32 %r
}

define void @memory(ptr %p, ptr addrspace(1) %q) {
  %a = alloca i32, align 4
  %arr = alloca [8 x float], i32 2, align 16, addrspace(5)
  %ia = alloca inalloca i32
  %l = load i32, ptr %p, align 4, !tbaa !2
  %lv = load volatile i32, ptr %p
  %la = load atomic i32, ptr %p syncscope("singlethread") acquire, align 4
  store i32 %l, ptr %a, align 4, !nontemporal !5
  store volatile i32 %lv, ptr %a
  store atomic i32 %la, ptr %p seq_cst, align 4
  %cx = cmpxchg weak volatile ptr %p, i32 %l, i32 1 syncscope("agent") acq_rel monotonic, align 4
  %cx0 = extractvalue { i32, i1 } %cx, 0
  %cx1 = extractvalue { i32, i1 } %cx, 1
  %rmw = atomicrmw add ptr %p, i32 1 monotonic, align 4
  %rmwf = atomicrmw fadd ptr addrspace(1) %q, float 1.0 syncscope("workgroup") release, align 4, !mmra !6
  %rmwx = atomicrmw volatile xchg ptr %p, i32 %cx0 seq_cst
  %rmwm = atomicrmw umax ptr %p, i32 3 acq_rel
  fence syncscope("workgroup") release, !mmra !6
  fence seq_cst
  %gep = getelementptr inbounds %struct.Pair, ptr %p, i64 1, i32 1
  %gep2 = getelementptr inbounds nuw [8 x float], ptr addrspace(5) %arr, i64 0, i64 3
  %gep3 = getelementptr nusw i8, ptr %p, i64 -4
  %vgep = getelementptr i32, ptr %p, <2 x i64> <i64 0, i64 1>
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %p, i64 4, i1 false)
  ret void
}

define <4 x float> @vectors(<4 x float> %v, float %x, i32 %i) {
  %e = extractelement <4 x float> %v, i32 %i
  %ins = insertelement <4 x float> poison, float %x, i64 0
  %splat = shufflevector <4 x float> %ins, <4 x float> poison, <4 x i32> zeroinitializer
  %sh = shufflevector <4 x float> %v, <4 x float> %splat, <4 x i32> <i32 0, i32 5, i32 poison, i32 7>
  %sum = fadd <4 x float> %sh, %splat
  %abs = call <4 x float> @llvm.fabs.v4f32(<4 x float> %sum)
  %fma = call fast float @llvm.fma.f32(float %e, float %x, float 1.0)
  %agg = insertvalue { float, [2 x i32] } undef, float %fma, 0
  %agg2 = insertvalue { float, [2 x i32] } %agg, i32 %i, 1, 1
  %get = extractvalue { float, [2 x i32] } %agg2, 1, 0
  ret <4 x float> %abs
}

define i32 @control(i32 %n, ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  br label %loop

loop:                                             ; preds = %latch, %entry
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %acc = phi float [ 0.0, %entry ], [ %acc2, %latch ]
  switch i32 %i, label %latch [
    i32 0, label %zero
    i32 1, label %one
  ]

zero:
  br label %latch

one:
  invoke void @may_throw()
          to label %latch unwind label %lpad

lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
          catch ptr null
  resume { ptr, i32 } %lp

latch:
  %acc2 = fadd float %acc, 1.0
  %next = add i32 %i, 1
  %done = icmp sge i32 %next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !7

exit:
  %addr = select i1 %done, ptr blockaddress(@control, %zero), ptr blockaddress(@control, %one)
  indirectbr ptr %addr, [label %zero, label %one]
}

define void @calls(ptr %p, i32 %x) convergent {
  %tok = call token @llvm.experimental.convergence.entry()
  %r = tail call i32 (ptr, ...) @printf(ptr @str, i32 %x) #2
  call void @callee(i32 signext %x, ptr %p, ptr byval(%struct.Pair) align 8 %p) [ "convergencectrl"(token %tok) ]
  %m = notail call noalias ptr @malloc(i64 8)
  %asm = call i32 asm sideeffect "mov $0, $1", "=r,r"(i32 %x)
  call void @spirv_builtin(target("spirv.Image", float, 1, 0, 0, 0, 1, 0) poison)
  %rr = call range(i32 0, 10) i32 @ranged(i32 %x)
  unreachable
}

define internal fastcc void @tail(ptr %p) {
  musttail call fastcc void @tail(ptr %p)
  ret void
}

define void @numbered(i32, i32 %named, i32) {
  %3 = add i32 %0, %1
  br label %4

4:
  %5 = phi i32 [ %3, %2 ], [ %6, %4 ]
  %6 = add i32 %5, %named
  %7 = icmp eq i32 %6, 100
  br i1 %7, label %8, label %4

8:
  ret void
}

define void @debug(i32 %x) !dbg !10 {
entry:
    #dbg_value(i32 %x, !13, !DIExpression(), !14)
  %y = add i32 %x, 1, !dbg !14
  ret void, !dbg !14
}

attributes #0 = { nounwind "frame-pointer"="all" }
attributes #1 = { noinline nounwind optnone uwtable "target-cpu"="x86-64" "no-trapping-math"="true" }
attributes #2 = { nobuiltin }

!llvm.module.flags = !{!8, !9}
!llvm.ident = !{!1}
!llvm.dbg.cu = !{!11}

!0 = !{}
!1 = !{!"clang version 22"}
!2 = !{!3, !3, i64 0}
!3 = !{!"int", !4, i64 0}
!4 = !{!"omnipotent char", !17, i64 0}
!5 = !{i32 1}
!6 = !{!"amdgpu-synchronize-as", !"local"}
!7 = distinct !{!7, !{!"llvm.loop.mustprogress"}}
!8 = !{i32 7, !"Dwarf Version", i32 5}
!9 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "debug", scope: !12, file: !12, line: 1, type: !15, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !11)
!11 = distinct !DICompileUnit(language: DW_LANG_C11, file: !12, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!12 = !DIFile(filename: "constructs.c", directory: "/tmp")
!13 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !12, line: 1, type: !16)
!14 = !DILocation(line: 2, column: 3, scope: !10)
!15 = !DISubroutineType(types: !{null, !16})
!16 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!17 = !{!"Simple C/C++ TBAA"}

; clang-15 -S -emit-llvm -g -O2 on a small C program (varargs, switch, computed goto, TLS,
; atomics, vectors, libm), then opt-22 -S: IR with debug info as LLVM 22 prints it, mutated by
; tests/verify_garbage.rs.
; ModuleID = 'a.O2.ll'
source_filename = "a.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.S = type { i32, float, [5 x i8], ptr, i8 }
%struct.__va_list_tag = type { i32, i32, ptr, ptr }

@__const.main.s = private unnamed_addr constant %struct.S { i32 1, float 2.000000e+00, [5 x i8] c"abc\00\00", ptr null, i8 5 }, align 8
@.str = private unnamed_addr constant [16 x i8] c"%d %f %s %d %d\0A\00", align 1, !dbg !0
@counter = internal global i32 0, align 4, !dbg !7
@tl = dso_local thread_local local_unnamed_addr global i32 0, align 4, !dbg !11
@__const.main.labels = private unnamed_addr constant [2 x ptr] [ptr blockaddress(@main, %68), ptr blockaddress(@main, %72)], align 16
@switch.table.sw = private unnamed_addr constant [7 x i32] [i32 10, i32 20, i32 -1, i32 -1, i32 -1, i32 -1, i32 3], align 4

; Function Attrs: nofree nosync nounwind uwtable
define dso_local i32 @sum(i32 noundef %0, ...) local_unnamed_addr #0 !dbg !21 {
  %2 = alloca [1 x %struct.__va_list_tag], align 16
    #dbg_value(i32 %0, !25, !DIExpression(), !47)
  call void @llvm.lifetime.start.p0(ptr %2), !dbg !48
    #dbg_declare(ptr %2, !26, !DIExpression(), !49)
  call void @llvm.va_start.p0(ptr nonnull %2), !dbg !50
    #dbg_value(i32 0, !44, !DIExpression(), !47)
    #dbg_value(i32 0, !45, !DIExpression(), !51)
  %3 = icmp sgt i32 %0, 0, !dbg !52
  br i1 %3, label %4, label %31, !dbg !54

4:                                                ; preds = %1
  %5 = getelementptr inbounds %struct.__va_list_tag, ptr %2, i64 0, i32 2
  %6 = getelementptr inbounds %struct.__va_list_tag, ptr %2, i64 0, i32 3
  %7 = load ptr, ptr %6, align 16
  %8 = load i32, ptr %2, align 16, !dbg !55
  %9 = and i32 %0, 1, !dbg !54
  %10 = icmp eq i32 %0, 1, !dbg !54
  br i1 %10, label %13, label %11, !dbg !54

11:                                               ; preds = %4
  %12 = and i32 %0, -2, !dbg !54
  br label %33, !dbg !54

13:                                               ; preds = %58, %4
  %14 = phi i32 [ undef, %4 ], [ %62, %58 ]
  %15 = phi i32 [ %8, %4 ], [ %59, %58 ]
  %16 = phi i32 [ 0, %4 ], [ %62, %58 ]
  %17 = icmp eq i32 %9, 0, !dbg !55
  br i1 %17, label %31, label %18, !dbg !55

18:                                               ; preds = %13
    #dbg_value(i32 undef, !45, !DIExpression(), !51)
    #dbg_value(i32 %16, !44, !DIExpression(), !47)
  %19 = icmp ult i32 %15, 41, !dbg !55
  br i1 %19, label %23, label %20, !dbg !55

20:                                               ; preds = %18
  %21 = load ptr, ptr %5, align 8, !dbg !55
  %22 = getelementptr i8, ptr %21, i64 8, !dbg !55
  store ptr %22, ptr %5, align 8, !dbg !55
  br label %27, !dbg !55

23:                                               ; preds = %18
  %24 = zext i32 %15 to i64, !dbg !55
  %25 = getelementptr i8, ptr %7, i64 %24, !dbg !55
  %26 = add nuw nsw i32 %15, 8, !dbg !55
  store i32 %26, ptr %2, align 16, !dbg !55
  br label %27, !dbg !55

27:                                               ; preds = %23, %20
  %28 = phi ptr [ %25, %23 ], [ %21, %20 ], !dbg !55
  %29 = load i32, ptr %28, align 4, !dbg !55
  %30 = add nsw i32 %29, %16, !dbg !56
    #dbg_value(i32 %30, !44, !DIExpression(), !47)
    #dbg_value(i32 undef, !45, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !51)
  br label %31, !dbg !57

31:                                               ; preds = %27, %13, %1
  %32 = phi i32 [ 0, %1 ], [ %14, %13 ], [ %30, %27 ], !dbg !47
  call void @llvm.va_end.p0(ptr nonnull %2), !dbg !57
  call void @llvm.lifetime.end.p0(ptr %2), !dbg !58
  ret i32 %32, !dbg !59

33:                                               ; preds = %58, %11
  %34 = phi i32 [ %8, %11 ], [ %59, %58 ], !dbg !55
  %35 = phi i32 [ 0, %11 ], [ %62, %58 ]
  %36 = phi i32 [ 0, %11 ], [ %63, %58 ]
    #dbg_value(i32 poison, !45, !DIExpression(), !51)
    #dbg_value(i32 %35, !44, !DIExpression(), !47)
  %37 = icmp ult i32 %34, 41, !dbg !55
  br i1 %37, label %38, label %42, !dbg !55

38:                                               ; preds = %33
  %39 = zext i32 %34 to i64, !dbg !55
  %40 = getelementptr i8, ptr %7, i64 %39, !dbg !55
  %41 = add nuw nsw i32 %34, 8, !dbg !55
  store i32 %41, ptr %2, align 16, !dbg !55
  br label %45, !dbg !55

42:                                               ; preds = %33
  %43 = load ptr, ptr %5, align 8, !dbg !55
  %44 = getelementptr i8, ptr %43, i64 8, !dbg !55
  store ptr %44, ptr %5, align 8, !dbg !55
  br label %45, !dbg !55

45:                                               ; preds = %42, %38
  %46 = phi i32 [ %41, %38 ], [ %34, %42 ]
  %47 = phi ptr [ %40, %38 ], [ %43, %42 ], !dbg !55
  %48 = load i32, ptr %47, align 4, !dbg !55
  %49 = add nsw i32 %48, %35, !dbg !56
    #dbg_value(i32 %49, !44, !DIExpression(), !47)
    #dbg_value(i32 poison, !45, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !51)
    #dbg_value(i32 poison, !45, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !51)
    #dbg_value(i32 %49, !44, !DIExpression(), !47)
  %50 = icmp ult i32 %46, 41, !dbg !55
  br i1 %50, label %54, label %51, !dbg !55

51:                                               ; preds = %45
  %52 = load ptr, ptr %5, align 8, !dbg !55
  %53 = getelementptr i8, ptr %52, i64 8, !dbg !55
  store ptr %53, ptr %5, align 8, !dbg !55
  br label %58, !dbg !55

54:                                               ; preds = %45
  %55 = zext i32 %46 to i64, !dbg !55
  %56 = getelementptr i8, ptr %7, i64 %55, !dbg !55
  %57 = add nuw nsw i32 %46, 8, !dbg !55
  store i32 %57, ptr %2, align 16, !dbg !55
  br label %58, !dbg !55

58:                                               ; preds = %54, %51
  %59 = phi i32 [ %57, %54 ], [ %46, %51 ]
  %60 = phi ptr [ %56, %54 ], [ %52, %51 ], !dbg !55
  %61 = load i32, ptr %60, align 4, !dbg !55
  %62 = add nsw i32 %61, %49, !dbg !56
    #dbg_value(i32 %62, !44, !DIExpression(), !47)
    #dbg_value(i32 poison, !45, !DIExpression(DW_OP_plus_uconst, 2, DW_OP_stack_value), !51)
  %63 = add i32 %36, 2, !dbg !54
  %64 = icmp eq i32 %63, %12, !dbg !54
  br i1 %64, label %13, label %33, !dbg !54, !llvm.loop !60
}

; Function Attrs: mustprogress nofree nounwind willreturn memory(write) uwtable
define dso_local double @f(double noundef %0) local_unnamed_addr #1 !dbg !63 {
    #dbg_value(double %0, !68, !DIExpression(), !69)
  %2 = tail call double @sin(double noundef %0) #16, !dbg !70
  %3 = tail call double @cos(double noundef %0) #16, !dbg !71
  %4 = tail call double @llvm.fabs.f64(double %0), !dbg !72
  %5 = tail call double @sqrt(double noundef %4) #16, !dbg !73
  %6 = tail call double @llvm.fmuladd.f64(double %2, double %3, double %5), !dbg !74
  ret double %6, !dbg !75
}

; Function Attrs: mustprogress nofree nounwind willreturn memory(write)
declare double @sin(double noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nofree nounwind willreturn memory(write)
declare double @cos(double noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nofree nounwind willreturn memory(write)
declare double @sqrt(double noundef) local_unnamed_addr #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fabs.f64(double) #3

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #3

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none) uwtable
define dso_local i32 @sw(i32 noundef %0) local_unnamed_addr #4 !dbg !76 {
    #dbg_value(i32 %0, !80, !DIExpression(), !81)
  %2 = add i32 %0, -1, !dbg !82
  %3 = icmp ult i32 %2, 7, !dbg !82
  br i1 %3, label %4, label %8, !dbg !82

4:                                                ; preds = %1
  %5 = sext i32 %2 to i64, !dbg !82
  %6 = getelementptr inbounds [7 x i32], ptr @switch.table.sw, i64 0, i64 %5, !dbg !82
  %7 = load i32, ptr %6, align 4, !dbg !82
  br label %8, !dbg !82

8:                                                ; preds = %4, %1
  %9 = phi i32 [ %7, %4 ], [ -1, %1 ], !dbg !83
  ret i32 %9, !dbg !85
}

; Function Attrs: nofree norecurse nosync nounwind uwtable
define dso_local ptr @g(ptr noundef %0, i32 noundef %1) local_unnamed_addr #5 !dbg !86 {
    #dbg_value(ptr %0, !102, !DIExpression(), !106)
    #dbg_value(i32 %1, !103, !DIExpression(), !106)
    #dbg_value(i32 0, !104, !DIExpression(), !107)
  %3 = icmp sgt i32 %1, 0, !dbg !108
  br i1 %3, label %4, label %21, !dbg !110

4:                                                ; preds = %2
  %5 = and i32 %1, 1, !dbg !110
  %6 = icmp eq i32 %1, 1, !dbg !110
  br i1 %6, label %9, label %7, !dbg !110

7:                                                ; preds = %4
  %8 = and i32 %1, -2, !dbg !110
  br label %23, !dbg !110

9:                                                ; preds = %23, %4
  %10 = phi ptr [ undef, %4 ], [ %39, %23 ]
  %11 = phi i32 [ 0, %4 ], [ %40, %23 ]
  %12 = phi ptr [ %0, %4 ], [ %39, %23 ]
  %13 = icmp eq i32 %5, 0, !dbg !110
  br i1 %13, label %21, label %14, !dbg !110

14:                                               ; preds = %9
    #dbg_value(i32 %11, !104, !DIExpression(), !107)
    #dbg_value(ptr %12, !102, !DIExpression(), !106)
  %15 = load i32, ptr %12, align 8, !dbg !111, !tbaa !113
  %16 = add nsw i32 %15, %11, !dbg !111
  store i32 %16, ptr %12, align 8, !dbg !111, !tbaa !113
  %17 = getelementptr inbounds %struct.S, ptr %12, i64 0, i32 3, !dbg !120
  %18 = load ptr, ptr %17, align 8, !dbg !120, !tbaa !121
  %19 = icmp eq ptr %18, null, !dbg !122
  %20 = select i1 %19, ptr %12, ptr %18, !dbg !122
    #dbg_value(ptr %20, !102, !DIExpression(), !106)
    #dbg_value(i32 %11, !104, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !107)
  br label %21, !dbg !123

21:                                               ; preds = %14, %9, %2
  %22 = phi ptr [ %0, %2 ], [ %10, %9 ], [ %20, %14 ]
  ret ptr %22, !dbg !123

23:                                               ; preds = %23, %7
  %24 = phi i32 [ 0, %7 ], [ %40, %23 ]
  %25 = phi ptr [ %0, %7 ], [ %39, %23 ]
  %26 = phi i32 [ 0, %7 ], [ %41, %23 ]
    #dbg_value(i32 %24, !104, !DIExpression(), !107)
    #dbg_value(ptr %25, !102, !DIExpression(), !106)
  %27 = load i32, ptr %25, align 8, !dbg !111, !tbaa !113
  %28 = add nsw i32 %27, %24, !dbg !111
  store i32 %28, ptr %25, align 8, !dbg !111, !tbaa !113
  %29 = getelementptr inbounds %struct.S, ptr %25, i64 0, i32 3, !dbg !120
  %30 = load ptr, ptr %29, align 8, !dbg !120, !tbaa !121
  %31 = icmp eq ptr %30, null, !dbg !122
  %32 = select i1 %31, ptr %25, ptr %30, !dbg !122
    #dbg_value(ptr %32, !102, !DIExpression(), !106)
  %33 = or i32 %24, 1, !dbg !124
    #dbg_value(i32 %33, !104, !DIExpression(), !107)
    #dbg_value(i32 %33, !104, !DIExpression(), !107)
    #dbg_value(ptr %32, !102, !DIExpression(), !106)
  %34 = load i32, ptr %32, align 8, !dbg !111, !tbaa !113
  %35 = add nsw i32 %34, %33, !dbg !111
  store i32 %35, ptr %32, align 8, !dbg !111, !tbaa !113
  %36 = getelementptr inbounds %struct.S, ptr %32, i64 0, i32 3, !dbg !120
  %37 = load ptr, ptr %36, align 8, !dbg !120, !tbaa !121
  %38 = icmp eq ptr %37, null, !dbg !122
  %39 = select i1 %38, ptr %32, ptr %37, !dbg !122
    #dbg_value(ptr %39, !102, !DIExpression(), !106)
  %40 = add nuw nsw i32 %24, 2, !dbg !124
    #dbg_value(i32 %40, !104, !DIExpression(), !107)
  %41 = add i32 %26, 2, !dbg !110
  %42 = icmp eq i32 %41, %8, !dbg !110
  br i1 %42, label %9, label %23, !dbg !110, !llvm.loop !125
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none) uwtable
define dso_local <4 x i32> @vadd(<4 x i32> noundef %0, <4 x i32> noundef %1) local_unnamed_addr #6 !dbg !127 {
    #dbg_value(<4 x i32> %0, !135, !DIExpression(), !137)
    #dbg_value(<4 x i32> %1, !136, !DIExpression(), !137)
  %3 = shl <4 x i32> %1, splat (i32 1), !dbg !138
  %4 = add <4 x i32> %3, %0, !dbg !139
  ret <4 x i32> %4, !dbg !140
}

; Function Attrs: mustprogress nofree norecurse nounwind willreturn uwtable
define dso_local i32 @atom(ptr noundef captures(none) %0) local_unnamed_addr #7 !dbg !141 {
    #dbg_value(ptr %0, !146, !DIExpression(), !147)
  %2 = atomicrmw add ptr %0, i32 1 seq_cst, align 4, !dbg !148
  %3 = cmpxchg ptr %0, i32 1, i32 2 seq_cst seq_cst, align 4, !dbg !149
  %4 = extractvalue { i32, i1 } %3, 0, !dbg !149
  ret i32 %4, !dbg !150
}

; Function Attrs: nounwind uwtable
define dso_local i32 @main(i32 noundef %0, ptr noundef readonly captures(none) %1) #8 !dbg !151 {
  %3 = alloca %struct.S, align 8
  %4 = getelementptr inbounds %struct.S, ptr %3, i64 0, i32 3, !dbg !172
    #dbg_value(i32 %0, !157, !DIExpression(), !172)
    #dbg_value(ptr %1, !158, !DIExpression(), !172)
    #dbg_declare(ptr %3, !159, !DIExpression(), !173)
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(32) %3, ptr noundef nonnull align 8 dereferenceable(32) @__const.main.s, i64 32, i1 false), !dbg !173
    #dbg_value(i32 1069547520, !160, !DIExpression(), !172)
  %5 = tail call noalias dereferenceable_or_null(100) ptr @malloc(i64 noundef 100) #17, !dbg !174
    #dbg_value(ptr %5, !165, !DIExpression(), !172)
  %6 = load ptr, ptr %1, align 8, !dbg !175, !tbaa !176
  %7 = tail call ptr @strcpy(ptr noundef nonnull dereferenceable(1) %5, ptr noundef nonnull dereferenceable(1) %6) #16, !dbg !177
  %8 = tail call i32 (i32, ...) @sum(i32 noundef 3, i32 noundef 1, i32 noundef 2, i32 noundef 3), !dbg !178
  %9 = sitofp i32 %0 to double, !dbg !179
    #dbg_value(double %9, !68, !DIExpression(), !180)
  %10 = tail call double @sin(double noundef %9) #16, !dbg !182
  %11 = tail call double @cos(double noundef %9) #16, !dbg !183
  %12 = tail call double @llvm.fabs.f64(double %9), !dbg !184
  %13 = tail call double @sqrt(double noundef %12) #16, !dbg !185
  %14 = tail call double @llvm.fmuladd.f64(double %10, double %11, double %13), !dbg !186
    #dbg_value(i32 %0, !80, !DIExpression(), !187)
  switch i32 %0, label %20 [
    i32 1, label %17
    i32 2, label %15
    i32 7, label %16
  ], !dbg !189

15:                                               ; preds = %2
  br label %17, !dbg !190

16:                                               ; preds = %2
  br label %17, !dbg !191

17:                                               ; preds = %16, %15, %2
  %18 = phi i32 [ 10, %2 ], [ 20, %15 ], [ 3, %16 ]
  %19 = tail call i32 (ptr, ...) @printf(ptr noundef nonnull @.str, i32 noundef %8, double noundef %14, ptr noundef %5, i32 noundef %18, i32 noundef 1069547520), !dbg !192
    #dbg_value(ptr %3, !102, !DIExpression(), !193)
    #dbg_value(i32 %0, !103, !DIExpression(), !193)
    #dbg_value(i32 0, !104, !DIExpression(), !195)
  br label %23, !dbg !196

20:                                               ; preds = %2
  %21 = tail call i32 (ptr, ...) @printf(ptr noundef nonnull @.str, i32 noundef %8, double noundef %14, ptr noundef %5, i32 noundef -1, i32 noundef 1069547520), !dbg !192
    #dbg_value(ptr %3, !102, !DIExpression(), !193)
    #dbg_value(i32 %0, !103, !DIExpression(), !193)
    #dbg_value(i32 0, !104, !DIExpression(), !195)
  %22 = icmp sgt i32 %0, 0, !dbg !197
  br i1 %22, label %23, label %61, !dbg !196

23:                                               ; preds = %20, %17
  %24 = and i32 %0, 1, !dbg !196
  %25 = icmp eq i32 %0, 1, !dbg !196
  br i1 %25, label %54, label %26, !dbg !196

26:                                               ; preds = %23
  %27 = and i32 %0, -2, !dbg !196
  br label %28, !dbg !196

28:                                               ; preds = %28, %26
  %29 = phi i32 [ 0, %26 ], [ %51, %28 ]
  %30 = phi ptr [ %3, %26 ], [ %47, %28 ]
  %31 = phi ptr [ %4, %26 ], [ %50, %28 ], !dbg !195
  %32 = phi ptr [ %4, %26 ], [ %48, %28 ], !dbg !195
  %33 = phi i32 [ 0, %26 ], [ %52, %28 ]
    #dbg_value(i32 %29, !104, !DIExpression(), !195)
    #dbg_value(ptr %30, !102, !DIExpression(), !193)
  %34 = load i32, ptr %30, align 8, !dbg !198, !tbaa !113
  %35 = add nsw i32 %34, %29, !dbg !198
  store i32 %35, ptr %30, align 8, !dbg !198, !tbaa !113
  %36 = load ptr, ptr %31, align 8, !dbg !199, !tbaa !121
  %37 = icmp eq ptr %36, null, !dbg !200
  %38 = select i1 %37, ptr %30, ptr %36, !dbg !200
  %39 = getelementptr inbounds %struct.S, ptr %38, i64 0, i32 3, !dbg !193
  %40 = getelementptr inbounds %struct.S, ptr %36, i64 0, i32 3, !dbg !193
  %41 = select i1 %37, ptr %32, ptr %40, !dbg !193
    #dbg_value(ptr %38, !102, !DIExpression(), !193)
  %42 = or i32 %29, 1, !dbg !201
    #dbg_value(i32 %42, !104, !DIExpression(), !195)
    #dbg_value(i32 %42, !104, !DIExpression(), !195)
    #dbg_value(ptr %38, !102, !DIExpression(), !193)
  %43 = load i32, ptr %38, align 8, !dbg !198, !tbaa !113
  %44 = add nsw i32 %43, %42, !dbg !198
  store i32 %44, ptr %38, align 8, !dbg !198, !tbaa !113
  %45 = load ptr, ptr %41, align 8, !dbg !199, !tbaa !121
  %46 = icmp eq ptr %45, null, !dbg !200
  %47 = select i1 %46, ptr %38, ptr %45, !dbg !200
  %48 = getelementptr inbounds %struct.S, ptr %47, i64 0, i32 3, !dbg !193
  %49 = getelementptr inbounds %struct.S, ptr %45, i64 0, i32 3, !dbg !193
  %50 = select i1 %46, ptr %39, ptr %49, !dbg !193
    #dbg_value(ptr %47, !102, !DIExpression(), !193)
  %51 = add nuw nsw i32 %29, 2, !dbg !201
    #dbg_value(i32 %51, !104, !DIExpression(), !195)
  %52 = add i32 %33, 2, !dbg !196
  %53 = icmp eq i32 %52, %27, !dbg !196
  br i1 %53, label %54, label %28, !dbg !196, !llvm.loop !202

54:                                               ; preds = %28, %23
  %55 = phi i32 [ 0, %23 ], [ %51, %28 ]
  %56 = phi ptr [ %3, %23 ], [ %47, %28 ]
  %57 = icmp eq i32 %24, 0, !dbg !196
  br i1 %57, label %61, label %58, !dbg !196

58:                                               ; preds = %54
    #dbg_value(i32 %55, !104, !DIExpression(), !195)
    #dbg_value(ptr %56, !102, !DIExpression(), !193)
  %59 = load i32, ptr %56, align 8, !dbg !198, !tbaa !113
  %60 = add nsw i32 %59, %55, !dbg !198
  store i32 %60, ptr %56, align 8, !dbg !198, !tbaa !113
    #dbg_value(ptr undef, !102, !DIExpression(), !193)
    #dbg_value(i32 %55, !104, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !195)
  br label %61, !dbg !204

61:                                               ; preds = %58, %54, %20
  %62 = load i32, ptr @counter, align 4, !dbg !204, !tbaa !205
  %63 = add nsw i32 %62, 1, !dbg !204
  store i32 %63, ptr @counter, align 4, !dbg !204, !tbaa !205
  store i32 %63, ptr @tl, align 4, !dbg !206, !tbaa !205
    #dbg_declare(ptr @__const.main.labels, !166, !DIExpression(), !207)
  %64 = and i32 %0, 1, !dbg !208
  %65 = zext i32 %64 to i64
  %66 = getelementptr inbounds [2 x ptr], ptr @__const.main.labels, i64 0, i64 %65, !dbg !209
  %67 = load ptr, ptr %66, align 8, !dbg !209, !tbaa !176
  indirectbr ptr %67, [label %68, label %72]

68:                                               ; preds = %61
    #dbg_label(!170, !210)
  tail call void @free(ptr noundef %5) #16, !dbg !211
    #dbg_value(ptr @counter, !146, !DIExpression(), !212)
  %69 = atomicrmw add ptr @counter, i32 1 seq_cst, align 4, !dbg !214
  %70 = cmpxchg ptr @counter, i32 1, i32 2 seq_cst seq_cst, align 4, !dbg !215
  %71 = extractvalue { i32, i1 } %70, 0, !dbg !215
  br label %72, !dbg !216

72:                                               ; preds = %68, %61
  %73 = phi i32 [ %71, %68 ], [ 0, %61 ], !dbg !172
  ret i32 %73, !dbg !217
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #9

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr #10

; Function Attrs: mustprogress nofree nounwind willreturn memory(argmem: readwrite)
declare ptr @strcpy(ptr noalias noundef returned writeonly, ptr noalias noundef readonly captures(none)) local_unnamed_addr #11

; Function Attrs: nofree nounwind
declare noundef i32 @printf(ptr noundef readonly captures(none), ...) local_unnamed_addr #12

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr noundef captures(none)) local_unnamed_addr #13

declare void @llvm.lifetime.start.i64(i64)

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #14

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare void @llvm.va_start.p0(ptr) #15

declare void @llvm.lifetime.end.i64(i64)

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #14

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare void @llvm.va_end.p0(ptr) #15

attributes #0 = { nofree nosync nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nofree nounwind willreturn memory(write) uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nofree nounwind willreturn memory(write) "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nofree norecurse nosync nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) uwtable "frame-pointer"="none" "min-legal-vector-width"="128" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #7 = { mustprogress nofree norecurse nounwind willreturn uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #8 = { nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #9 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #10 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #11 = { mustprogress nofree nounwind willreturn memory(argmem: readwrite) "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #12 = { nofree nounwind "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #13 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "frame-pointer"="none" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #14 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #15 = { nocallback nofree nosync nounwind willreturn }
attributes #16 = { nounwind }
attributes #17 = { nounwind allocsize(0) }

!llvm.dbg.cu = !{!9}
!llvm.module.flags = !{!14, !15, !16, !17, !18, !19}
!llvm.ident = !{!20}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(scope: null, file: !2, line: 21, type: !3, isLocal: true, isDefinition: true)
!2 = !DIFile(filename: "a.c", directory: "/tmp/cgen", checksumkind: CSK_MD5, checksum: "5786e5eac734d1a634505b701a84ff52")
!3 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 128, elements: !5)
!4 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!5 = !{!6}
!6 = !DISubrange(count: 16)
!7 = !DIGlobalVariableExpression(var: !8, expr: !DIExpression())
!8 = distinct !DIGlobalVariable(name: "counter", scope: !9, file: !2, line: 8, type: !13, isLocal: true, isDefinition: true)
!9 = distinct !DICompileUnit(language: DW_LANG_C99, file: !2, producer: "Debian clang version 15.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !10, splitDebugInlining: false, nameTableKind: None)
!10 = !{!0, !7, !11}
!11 = !DIGlobalVariableExpression(var: !12, expr: !DIExpression())
!12 = distinct !DIGlobalVariable(name: "tl", scope: !9, file: !2, line: 9, type: !13, isLocal: false, isDefinition: true)
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !{i32 7, !"Dwarf Version", i32 5}
!15 = !{i32 2, !"Debug Info Version", i32 3}
!16 = !{i32 1, !"wchar_size", i32 4}
!17 = !{i32 8, !"PIC Level", i32 2}
!18 = !{i32 7, !"PIE Level", i32 2}
!19 = !{i32 7, !"uwtable", i32 2}
!20 = !{!"Debian clang version 15.0.6"}
!21 = distinct !DISubprogram(name: "sum", scope: !2, file: !2, line: 10, type: !22, scopeLine: 10, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !9, retainedNodes: !24)
!22 = !DISubroutineType(types: !23)
!23 = !{!13, !13, null}
!24 = !{!25, !26, !44, !45}
!25 = !DILocalVariable(name: "n", arg: 1, scope: !21, file: !2, line: 10, type: !13)
!26 = !DILocalVariable(name: "ap", scope: !21, file: !2, line: 10, type: !27)
!27 = !DIDerivedType(tag: DW_TAG_typedef, name: "va_list", file: !28, line: 52, baseType: !29)
!28 = !DIFile(filename: "/usr/include/stdio.h", directory: "", checksumkind: CSK_MD5, checksum: "b5a90985555f47bfb88eff5a8f0f5b72")
!29 = !DIDerivedType(tag: DW_TAG_typedef, name: "__gnuc_va_list", file: !30, line: 32, baseType: !31)
!30 = !DIFile(filename: "/usr/lib/llvm-15/lib/clang/15.0.6/include/stdarg.h", directory: "", checksumkind: CSK_MD5, checksum: "4de3cbd931b589d291e5c39387aecf82")
!31 = !DIDerivedType(tag: DW_TAG_typedef, name: "__builtin_va_list", file: !32, baseType: !33)
!32 = !DIFile(filename: "a.c", directory: "/tmp/cgen")
!33 = !DICompositeType(tag: DW_TAG_array_type, baseType: !34, size: 192, elements: !42)
!34 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "__va_list_tag", size: 192, elements: !35)
!35 = !{!36, !38, !39, !41}
!36 = !DIDerivedType(tag: DW_TAG_member, name: "gp_offset", scope: !34, file: !32, line: 10, baseType: !37, size: 32)
!37 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!38 = !DIDerivedType(tag: DW_TAG_member, name: "fp_offset", scope: !34, file: !32, line: 10, baseType: !37, size: 32, offset: 32)
!39 = !DIDerivedType(tag: DW_TAG_member, name: "overflow_arg_area", scope: !34, file: !32, line: 10, baseType: !40, size: 64, offset: 64)
!40 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!41 = !DIDerivedType(tag: DW_TAG_member, name: "reg_save_area", scope: !34, file: !32, line: 10, baseType: !40, size: 64, offset: 128)
!42 = !{!43}
!43 = !DISubrange(count: 1)
!44 = !DILocalVariable(name: "s", scope: !21, file: !2, line: 10, type: !13)
!45 = !DILocalVariable(name: "i", scope: !46, file: !2, line: 10, type: !13)
!46 = distinct !DILexicalBlock(scope: !21, file: !2, line: 10, column: 63)
!47 = !DILocation(line: 0, scope: !21)
!48 = !DILocation(line: 10, column: 23, scope: !21)
!49 = !DILocation(line: 10, column: 31, scope: !21)
!50 = !DILocation(line: 10, column: 35, scope: !21)
!51 = !DILocation(line: 0, scope: !46)
!52 = !DILocation(line: 10, column: 81, scope: !53)
!53 = distinct !DILexicalBlock(scope: !46, file: !2, line: 10, column: 63)
!54 = !DILocation(line: 10, column: 63, scope: !46)
!55 = !DILocation(line: 10, column: 96, scope: !53)
!56 = !DILocation(line: 10, column: 93, scope: !53)
!57 = !DILocation(line: 10, column: 113, scope: !21)
!58 = !DILocation(line: 10, column: 135, scope: !21)
!59 = !DILocation(line: 10, column: 125, scope: !21)
!60 = distinct !{!60, !54, !61, !62}
!61 = !DILocation(line: 10, column: 96, scope: !46)
!62 = !{!"llvm.loop.mustprogress"}
!63 = distinct !DISubprogram(name: "f", scope: !2, file: !2, line: 11, type: !64, scopeLine: 11, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !9, retainedNodes: !67)
!64 = !DISubroutineType(types: !65)
!65 = !{!66, !66}
!66 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!67 = !{!68}
!68 = !DILocalVariable(name: "x", arg: 1, scope: !63, file: !2, line: 11, type: !66)
!69 = !DILocation(line: 0, scope: !63)
!70 = !DILocation(line: 11, column: 29, scope: !63)
!71 = !DILocation(line: 11, column: 38, scope: !63)
!72 = !DILocation(line: 11, column: 52, scope: !63)
!73 = !DILocation(line: 11, column: 47, scope: !63)
!74 = !DILocation(line: 11, column: 45, scope: !63)
!75 = !DILocation(line: 11, column: 22, scope: !63)
!76 = distinct !DISubprogram(name: "sw", scope: !2, file: !2, line: 12, type: !77, scopeLine: 12, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !9, retainedNodes: !79)
!77 = !DISubroutineType(types: !78)
!78 = !{!13, !13}
!79 = !{!80}
!80 = !DILocalVariable(name: "x", arg: 1, scope: !76, file: !2, line: 12, type: !13)
!81 = !DILocation(line: 0, scope: !76)
!82 = !DILocation(line: 12, column: 17, scope: !76)
!83 = !DILocation(line: 0, scope: !84)
!84 = distinct !DILexicalBlock(scope: !76, file: !2, line: 12, column: 28)
!85 = !DILocation(line: 12, column: 108, scope: !76)
!86 = distinct !DISubprogram(name: "g", scope: !2, file: !2, line: 13, type: !87, scopeLine: 13, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !9, retainedNodes: !101)
!87 = !DISubroutineType(types: !88)
!88 = !{!40, !89, !13}
!89 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !90, size: 64)
!90 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !2, line: 6, size: 256, elements: !91)
!91 = !{!92, !93, !95, !99, !100}
!92 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !90, file: !2, line: 6, baseType: !13, size: 32)
!93 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !90, file: !2, line: 6, baseType: !94, size: 32, offset: 32)
!94 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!95 = !DIDerivedType(tag: DW_TAG_member, name: "c", scope: !90, file: !2, line: 6, baseType: !96, size: 40, offset: 64)
!96 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 40, elements: !97)
!97 = !{!98}
!98 = !DISubrange(count: 5)
!99 = !DIDerivedType(tag: DW_TAG_member, name: "next", scope: !90, file: !2, line: 6, baseType: !89, size: 64, offset: 128)
!100 = !DIDerivedType(tag: DW_TAG_member, name: "bits", scope: !90, file: !2, line: 6, baseType: !37, size: 3, offset: 192, flags: DIFlagBitField, extraData: i64 192)
!101 = !{!102, !103, !104}
!102 = !DILocalVariable(name: "s", arg: 1, scope: !86, file: !2, line: 13, type: !89)
!103 = !DILocalVariable(name: "k", arg: 2, scope: !86, file: !2, line: 13, type: !13)
!104 = !DILocalVariable(name: "i", scope: !105, file: !2, line: 13, type: !13)
!105 = distinct !DILexicalBlock(scope: !86, file: !2, line: 13, column: 31)
!106 = !DILocation(line: 0, scope: !86)
!107 = !DILocation(line: 0, scope: !105)
!108 = !DILocation(line: 13, column: 49, scope: !109)
!109 = distinct !DILexicalBlock(scope: !105, file: !2, line: 13, column: 31)
!110 = !DILocation(line: 13, column: 31, scope: !105)
!111 = !DILocation(line: 13, column: 66, scope: !112)
!112 = distinct !DILexicalBlock(scope: !109, file: !2, line: 13, column: 59)
!113 = !{!114, !115, i64 0}
!114 = !{!"S", !115, i64 0, !118, i64 4, !116, i64 8, !119, i64 16, !115, i64 24}
!115 = !{!"int", !116, i64 0}
!116 = !{!"omnipotent char", !117, i64 0}
!117 = !{!"Simple C/C++ TBAA"}
!118 = !{!"float", !116, i64 0}
!119 = !{!"any pointer", !116, i64 0}
!120 = !DILocation(line: 13, column: 79, scope: !112)
!121 = !{!114, !119, i64 16}
!122 = !DILocation(line: 13, column: 76, scope: !112)
!123 = !DILocation(line: 13, column: 101, scope: !86)
!124 = !DILocation(line: 13, column: 55, scope: !109)
!125 = distinct !{!125, !110, !126, !62}
!126 = !DILocation(line: 13, column: 99, scope: !105)
!127 = distinct !DISubprogram(name: "vadd", scope: !2, file: !2, line: 15, type: !128, scopeLine: 15, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !9, retainedNodes: !134)
!128 = !DISubroutineType(types: !129)
!129 = !{!130, !130, !130}
!130 = !DIDerivedType(tag: DW_TAG_typedef, name: "v4", file: !2, line: 14, baseType: !131)
!131 = !DICompositeType(tag: DW_TAG_array_type, baseType: !13, size: 128, flags: DIFlagVector, elements: !132)
!132 = !{!133}
!133 = !DISubrange(count: 4)
!134 = !{!135, !136}
!135 = !DILocalVariable(name: "a", arg: 1, scope: !127, file: !2, line: 15, type: !130)
!136 = !DILocalVariable(name: "b", arg: 2, scope: !127, file: !2, line: 15, type: !130)
!137 = !DILocation(line: 0, scope: !127)
!138 = !DILocation(line: 15, column: 36, scope: !127)
!139 = !DILocation(line: 15, column: 32, scope: !127)
!140 = !DILocation(line: 15, column: 23, scope: !127)
!141 = distinct !DISubprogram(name: "atom", scope: !2, file: !2, line: 16, type: !142, scopeLine: 16, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !9, retainedNodes: !145)
!142 = !DISubroutineType(types: !143)
!143 = !{!13, !144}
!144 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !13, size: 64)
!145 = !{!146}
!146 = !DILocalVariable(name: "p", arg: 1, scope: !141, file: !2, line: 16, type: !144)
!147 = !DILocation(line: 0, scope: !141)
!148 = !DILocation(line: 16, column: 20, scope: !141)
!149 = !DILocation(line: 16, column: 71, scope: !141)
!150 = !DILocation(line: 16, column: 64, scope: !141)
!151 = distinct !DISubprogram(name: "main", scope: !2, file: !2, line: 17, type: !152, scopeLine: 17, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !9, retainedNodes: !156)
!152 = !DISubroutineType(types: !153)
!153 = !{!13, !13, !154}
!154 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !155, size: 64)
!155 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !4, size: 64)
!156 = !{!157, !158, !159, !160, !165, !166, !170, !171}
!157 = !DILocalVariable(name: "argc", arg: 1, scope: !151, file: !2, line: 17, type: !13)
!158 = !DILocalVariable(name: "argv", arg: 2, scope: !151, file: !2, line: 17, type: !154)
!159 = !DILocalVariable(name: "s", scope: !151, file: !2, line: 18, type: !90)
!160 = !DILocalVariable(name: "u", scope: !151, file: !2, line: 19, type: !161)
!161 = distinct !DICompositeType(tag: DW_TAG_union_type, name: "U", file: !2, line: 7, size: 32, elements: !162)
!162 = !{!163, !164}
!163 = !DIDerivedType(tag: DW_TAG_member, name: "i", scope: !161, file: !2, line: 7, baseType: !13, size: 32)
!164 = !DIDerivedType(tag: DW_TAG_member, name: "f", scope: !161, file: !2, line: 7, baseType: !94, size: 32)
!165 = !DILocalVariable(name: "buf", scope: !151, file: !2, line: 20, type: !155)
!166 = !DILocalVariable(name: "labels", scope: !151, file: !2, line: 23, type: !167)
!167 = !DICompositeType(tag: DW_TAG_array_type, baseType: !40, size: 128, elements: !168)
!168 = !{!169}
!169 = !DISubrange(count: 2)
!170 = !DILabel(scope: !151, name: "l1", file: !2, line: 24)
!171 = !DILabel(scope: !151, name: "l2", file: !2, line: 25)
!172 = !DILocation(line: 0, scope: !151)
!173 = !DILocation(line: 18, column: 12, scope: !151)
!174 = !DILocation(line: 20, column: 15, scope: !151)
!175 = !DILocation(line: 20, column: 40, scope: !151)
!176 = !{!119, !119, i64 0}
!177 = !DILocation(line: 20, column: 28, scope: !151)
!178 = !DILocation(line: 21, column: 30, scope: !151)
!179 = !DILocation(line: 21, column: 49, scope: !151)
!180 = !DILocation(line: 0, scope: !63, inlinedAt: !181)
!181 = distinct !DILocation(line: 21, column: 47, scope: !151)
!182 = !DILocation(line: 11, column: 29, scope: !63, inlinedAt: !181)
!183 = !DILocation(line: 11, column: 38, scope: !63, inlinedAt: !181)
!184 = !DILocation(line: 11, column: 52, scope: !63, inlinedAt: !181)
!185 = !DILocation(line: 11, column: 47, scope: !63, inlinedAt: !181)
!186 = !DILocation(line: 11, column: 45, scope: !63, inlinedAt: !181)
!187 = !DILocation(line: 0, scope: !76, inlinedAt: !188)
!188 = distinct !DILocation(line: 21, column: 61, scope: !151)
!189 = !DILocation(line: 12, column: 17, scope: !76, inlinedAt: !188)
!190 = !DILocation(line: 12, column: 57, scope: !84, inlinedAt: !188)
!191 = !DILocation(line: 12, column: 76, scope: !84, inlinedAt: !188)
!192 = !DILocation(line: 21, column: 3, scope: !151)
!193 = !DILocation(line: 0, scope: !86, inlinedAt: !194)
!194 = distinct !DILocation(line: 22, column: 3, scope: !151)
!195 = !DILocation(line: 0, scope: !105, inlinedAt: !194)
!196 = !DILocation(line: 13, column: 31, scope: !105, inlinedAt: !194)
!197 = !DILocation(line: 13, column: 49, scope: !109, inlinedAt: !194)
!198 = !DILocation(line: 13, column: 66, scope: !112, inlinedAt: !194)
!199 = !DILocation(line: 13, column: 79, scope: !112, inlinedAt: !194)
!200 = !DILocation(line: 13, column: 76, scope: !112, inlinedAt: !194)
!201 = !DILocation(line: 13, column: 55, scope: !109, inlinedAt: !194)
!202 = distinct !{!202, !196, !203, !62}
!203 = !DILocation(line: 13, column: 99, scope: !105, inlinedAt: !194)
!204 = !DILocation(line: 22, column: 23, scope: !151)
!205 = !{!115, !115, i64 0}
!206 = !DILocation(line: 22, column: 30, scope: !151)
!207 = !DILocation(line: 23, column: 9, scope: !151)
!208 = !DILocation(line: 23, column: 52, scope: !151)
!209 = !DILocation(line: 23, column: 40, scope: !151)
!210 = !DILocation(line: 24, column: 1, scope: !151)
!211 = !DILocation(line: 24, column: 5, scope: !151)
!212 = !DILocation(line: 0, scope: !141, inlinedAt: !213)
!213 = distinct !DILocation(line: 24, column: 23, scope: !151)
!214 = !DILocation(line: 16, column: 20, scope: !141, inlinedAt: !213)
!215 = !DILocation(line: 16, column: 71, scope: !141, inlinedAt: !213)
!216 = !DILocation(line: 24, column: 16, scope: !151)
!217 = !DILocation(line: 26, column: 1, scope: !151)

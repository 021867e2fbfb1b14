;; G u for the constraint stage (ConstraintSystem, src/assembly/constraintSystem.ts): the rows of
;; the kept Jacobian blocks times the velocities, compiled into ./kernels.ts by `npm run kernels`.
;; Gu = 0, then for each block b of the table (constraint after constraint, its sides in order):
;; for each of its `rows` rows r, acc = Σ_j G[o + r·cols + j] u[uo + j] summed from 0 in j
;; order, and Gu[r0 + r] += acc: the operations of KeptBlocks.multiplyJs in its order, so
;; the bits agree. All arrays live in the imported memory: f64 G, u, Gu; the i32 table holds
;; five numbers per block (r0, rows, cols, uo, o).
(module
  (import "env" "mem" (memory 1))
  (func $rows (export "rows")
    (param $nBlocks i32) (param $m i32) (param $pTable i32) (param $pG i32) (param $pU i32) (param $pGu i32)
    (local $b i32) (local $t i32) (local $r0 i32) (local $rows i32) (local $cols i32) (local $pu i32) (local $pg i32)
    (local $r i32) (local $j i32) (local $acc f64) (local $a i32)
    (memory.fill (local.get $pGu) (i32.const 0) (i32.shl (local.get $m) (i32.const 3)))
    (local.set $b (i32.const 0))
    (block $dB (loop $lB
      (br_if $dB (i32.ge_s (local.get $b) (local.get $nBlocks)))
      ;; t = byte address of the block's five numbers
      (local.set $t (i32.add (local.get $pTable) (i32.mul (local.get $b) (i32.const 20))))
      (local.set $r0 (i32.load (local.get $t)))
      (local.set $rows (i32.load offset=4 (local.get $t)))
      (local.set $cols (i32.load offset=8 (local.get $t)))
      (local.set $pu (i32.add (local.get $pU) (i32.shl (i32.load offset=12 (local.get $t)) (i32.const 3))))
      (local.set $pg (i32.add (local.get $pG) (i32.shl (i32.load offset=16 (local.get $t)) (i32.const 3))))
      (local.set $r (i32.const 0))
      (block $dR (loop $lR
        (br_if $dR (i32.ge_s (local.get $r) (local.get $rows)))
        (local.set $acc (f64.const 0))
        (local.set $j (i32.const 0))
        (block $dJ (loop $lJ
          (br_if $dJ (i32.ge_s (local.get $j) (local.get $cols)))
          (local.set $acc (f64.add (local.get $acc)
            (f64.mul (f64.load (local.get $pg)) (f64.load (i32.add (local.get $pu) (i32.shl (local.get $j) (i32.const 3)))))))
          (local.set $pg (i32.add (local.get $pg) (i32.const 8)))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br $lJ)))
        (local.set $a (i32.add (local.get $pGu) (i32.shl (i32.add (local.get $r0) (local.get $r)) (i32.const 3))))
        (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (local.get $acc)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $lR)))
      (local.set $b (i32.add (local.get $b) (i32.const 1)))
      (br $lB)))
  )
)

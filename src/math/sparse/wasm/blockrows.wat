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
    (local $u0 f64) (local $u1 f64) (local $u2 f64) (local $u3 f64) (local $u4 f64) (local $u5 f64)
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
      (if (i32.eq (local.get $cols) (i32.const 6)) (then
        ;; a body side: its six velocities read once for all rows (the same sums in the same order)
        (local.set $u0 (f64.load (local.get $pu)))
        (local.set $u1 (f64.load offset=8 (local.get $pu)))
        (local.set $u2 (f64.load offset=16 (local.get $pu)))
        (local.set $u3 (f64.load offset=24 (local.get $pu)))
        (local.set $u4 (f64.load offset=32 (local.get $pu)))
        (local.set $u5 (f64.load offset=40 (local.get $pu)))
        (local.set $a (i32.add (local.get $pGu) (i32.shl (local.get $r0) (i32.const 3))))
        (local.set $r (i32.const 0))
        (block $d6 (loop $l6
          (br_if $d6 (i32.ge_s (local.get $r) (local.get $rows)))
          (f64.store (local.get $a) (f64.add (f64.load (local.get $a))
            (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add (f64.const 0)
              (f64.mul (f64.load (local.get $pg)) (local.get $u0)))
              (f64.mul (f64.load offset=8 (local.get $pg)) (local.get $u1)))
              (f64.mul (f64.load offset=16 (local.get $pg)) (local.get $u2)))
              (f64.mul (f64.load offset=24 (local.get $pg)) (local.get $u3)))
              (f64.mul (f64.load offset=32 (local.get $pg)) (local.get $u4)))
              (f64.mul (f64.load offset=40 (local.get $pg)) (local.get $u5)))))
          (local.set $pg (i32.add (local.get $pg) (i32.const 48)))
          (local.set $a (i32.add (local.get $a) (i32.const 8)))
          (local.set $r (i32.add (local.get $r) (i32.const 1)))
          (br $l6)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $lB)))
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

;; The supernodal LDLᵀ solve (x ← A⁻¹ x with P A Pᵀ = L D Lᵀ) as WebAssembly, compiled to the
;; bytes embedded in ./kernels.ts by `npm run kernels` (scripts/kernels.mjs, with wabt); a test
;; checks that the embedded bytes are this file's compilation. The arithmetic is that of
;; SupernodalLdlt.solveJs in ../supernodal.ts, operation for operation, so both give the same bits:
;; - w = P x;
;; - L z = w over the panels: each column's triangle in place, the rows below summed into acc
;;   and subtracted once per panel;
;; - D and Lᵀ backwards: the rows below gathered into acc, then dot products down each column;
;; - x = Pᵀ w.
;; All arrays live in the imported memory, at byte offsets given as parameters: f64 arrays Lx
;; (panels), Dinv (reciprocal pivots), w (n), acc (max panel height), x (n); i32 arrays first,
;; rowPtr, panelPtr (count + 1 each), rows (the panels' row lists) and perm (n).
(module
  (import "env" "mem" (memory 1))
  (func $solve (export "solve")
    (param $count i32) (param $n i32)
    (param $pLx i32) (param $pDinv i32) (param $pW i32) (param $pAcc i32) (param $pX i32)
    (param $pFirst i32) (param $pRowPtr i32) (param $pRows i32) (param $pPanel i32) (param $pPerm i32)
    (local $k i32) (local $J i32) (local $f i32) (local $nc i32) (local $r0 i32) (local $nr i32) (local $b i32)
    (local $c i32) (local $r i32) (local $xc f64) (local $cb i32) (local $s f64) (local $wf i32) (local $t i32)
    ;; w[k] = x[perm[k]]
    (local.set $k (i32.const 0))
    (block $d0 (loop $l0
      (br_if $d0 (i32.ge_s (local.get $k) (local.get $n)))
      (f64.store (i32.add (local.get $pW) (i32.shl (local.get $k) (i32.const 3)))
        (f64.load (i32.add (local.get $pX) (i32.shl (i32.load (i32.add (local.get $pPerm) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 3)))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $l0)))
    ;; forward
    (local.set $J (i32.const 0))
    (block $d1 (loop $l1
      (br_if $d1 (i32.ge_s (local.get $J) (local.get $count)))
      (local.set $f (i32.load (i32.add (local.get $pFirst) (i32.shl (local.get $J) (i32.const 2)))))
      (local.set $nc (i32.sub (i32.load (i32.add (local.get $pFirst) (i32.shl (i32.add (local.get $J) (i32.const 1)) (i32.const 2)))) (local.get $f)))
      (local.set $r0 (i32.load (i32.add (local.get $pRowPtr) (i32.shl (local.get $J) (i32.const 2)))))
      (local.set $nr (i32.sub (i32.load (i32.add (local.get $pRowPtr) (i32.shl (i32.add (local.get $J) (i32.const 1)) (i32.const 2)))) (local.get $r0)))
      (local.set $b (i32.load (i32.add (local.get $pPanel) (i32.shl (local.get $J) (i32.const 2)))))
      ;; wf = byte address of w[f]
      (local.set $wf (i32.add (local.get $pW) (i32.shl (local.get $f) (i32.const 3))))
      ;; acc[nc..nr) = 0
      (local.set $r (local.get $nc))
      (block $d2 (loop $l2
        (br_if $d2 (i32.ge_s (local.get $r) (local.get $nr)))
        (f64.store (i32.add (local.get $pAcc) (i32.shl (local.get $r) (i32.const 3))) (f64.const 0))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $l2)))
      (local.set $c (i32.const 0))
      (block $d3 (loop $l3
        (br_if $d3 (i32.ge_s (local.get $c) (local.get $nc)))
        (local.set $xc (f64.load (i32.add (local.get $wf) (i32.shl (local.get $c) (i32.const 3)))))
        ;; a zero entry updates nothing (the projection's right-hand sides are mostly zero)
        (if (f64.ne (local.get $xc) (f64.const 0)) (then
        ;; cb = byte address of Lx[b + c*nr]
        (local.set $cb (i32.add (local.get $pLx) (i32.shl (i32.add (local.get $b) (i32.mul (local.get $c) (local.get $nr))) (i32.const 3))))
        (local.set $r (i32.add (local.get $c) (i32.const 1)))
        (block $d4 (loop $l4
          (br_if $d4 (i32.ge_s (local.get $r) (local.get $nc)))
          (local.set $t (i32.add (local.get $wf) (i32.shl (local.get $r) (i32.const 3))))
          (f64.store (local.get $t) (f64.sub (f64.load (local.get $t))
            (f64.mul (f64.load (i32.add (local.get $cb) (i32.shl (local.get $r) (i32.const 3)))) (local.get $xc))))
          (local.set $r (i32.add (local.get $r) (i32.const 1)))
          (br $l4)))
        (local.set $r (local.get $nc))
        (block $d5 (loop $l5
          (br_if $d5 (i32.ge_s (local.get $r) (local.get $nr)))
          (local.set $t (i32.add (local.get $pAcc) (i32.shl (local.get $r) (i32.const 3))))
          (f64.store (local.get $t) (f64.add (f64.load (local.get $t))
            (f64.mul (f64.load (i32.add (local.get $cb) (i32.shl (local.get $r) (i32.const 3)))) (local.get $xc))))
          (local.set $r (i32.add (local.get $r) (i32.const 1)))
          (br $l5)))))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $l3)))
      ;; w[rows[r0 + r]] -= acc[r]
      (local.set $r (local.get $nc))
      (block $d6 (loop $l6
        (br_if $d6 (i32.ge_s (local.get $r) (local.get $nr)))
        (local.set $t (i32.add (local.get $pW) (i32.shl (i32.load (i32.add (local.get $pRows) (i32.shl (i32.add (local.get $r0) (local.get $r)) (i32.const 2)))) (i32.const 3))))
        (f64.store (local.get $t) (f64.sub (f64.load (local.get $t)) (f64.load (i32.add (local.get $pAcc) (i32.shl (local.get $r) (i32.const 3))))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $l6)))
      (local.set $J (i32.add (local.get $J) (i32.const 1)))
      (br $l1)))
    ;; backward
    (local.set $J (i32.sub (local.get $count) (i32.const 1)))
    (block $d7 (loop $l7
      (br_if $d7 (i32.lt_s (local.get $J) (i32.const 0)))
      (local.set $f (i32.load (i32.add (local.get $pFirst) (i32.shl (local.get $J) (i32.const 2)))))
      (local.set $nc (i32.sub (i32.load (i32.add (local.get $pFirst) (i32.shl (i32.add (local.get $J) (i32.const 1)) (i32.const 2)))) (local.get $f)))
      (local.set $r0 (i32.load (i32.add (local.get $pRowPtr) (i32.shl (local.get $J) (i32.const 2)))))
      (local.set $nr (i32.sub (i32.load (i32.add (local.get $pRowPtr) (i32.shl (i32.add (local.get $J) (i32.const 1)) (i32.const 2)))) (local.get $r0)))
      (local.set $b (i32.load (i32.add (local.get $pPanel) (i32.shl (local.get $J) (i32.const 2)))))
      (local.set $wf (i32.add (local.get $pW) (i32.shl (local.get $f) (i32.const 3))))
      (local.set $r (local.get $nc))
      (block $d8 (loop $l8
        (br_if $d8 (i32.ge_s (local.get $r) (local.get $nr)))
        (f64.store (i32.add (local.get $pAcc) (i32.shl (local.get $r) (i32.const 3)))
          (f64.load (i32.add (local.get $pW) (i32.shl (i32.load (i32.add (local.get $pRows) (i32.shl (i32.add (local.get $r0) (local.get $r)) (i32.const 2)))) (i32.const 3)))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $l8)))
      (local.set $c (i32.sub (local.get $nc) (i32.const 1)))
      (block $d9 (loop $l9
        (br_if $d9 (i32.lt_s (local.get $c) (i32.const 0)))
        (local.set $cb (i32.add (local.get $pLx) (i32.shl (i32.add (local.get $b) (i32.mul (local.get $c) (local.get $nr))) (i32.const 3))))
        (local.set $s (f64.mul (f64.load (i32.add (local.get $wf) (i32.shl (local.get $c) (i32.const 3))))
          (f64.load (i32.add (local.get $pDinv) (i32.shl (i32.add (local.get $f) (local.get $c)) (i32.const 3))))))
        (local.set $r (i32.add (local.get $c) (i32.const 1)))
        (block $d10 (loop $l10
          (br_if $d10 (i32.ge_s (local.get $r) (local.get $nc)))
          (local.set $s (f64.sub (local.get $s) (f64.mul (f64.load (i32.add (local.get $cb) (i32.shl (local.get $r) (i32.const 3))))
            (f64.load (i32.add (local.get $wf) (i32.shl (local.get $r) (i32.const 3)))))))
          (local.set $r (i32.add (local.get $r) (i32.const 1)))
          (br $l10)))
        (local.set $r (local.get $nc))
        (block $d11 (loop $l11
          (br_if $d11 (i32.ge_s (local.get $r) (local.get $nr)))
          (local.set $s (f64.sub (local.get $s) (f64.mul (f64.load (i32.add (local.get $cb) (i32.shl (local.get $r) (i32.const 3))))
            (f64.load (i32.add (local.get $pAcc) (i32.shl (local.get $r) (i32.const 3)))))))
          (local.set $r (i32.add (local.get $r) (i32.const 1)))
          (br $l11)))
        (f64.store (i32.add (local.get $wf) (i32.shl (local.get $c) (i32.const 3))) (local.get $s))
        (local.set $c (i32.sub (local.get $c) (i32.const 1)))
        (br $l9)))
      (local.set $J (i32.sub (local.get $J) (i32.const 1)))
      (br $l7)))
    ;; x[perm[k]] = w[k]
    (local.set $k (i32.const 0))
    (block $d12 (loop $l12
      (br_if $d12 (i32.ge_s (local.get $k) (local.get $n)))
      (f64.store (i32.add (local.get $pX) (i32.shl (i32.load (i32.add (local.get $pPerm) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 3)))
        (f64.load (i32.add (local.get $pW) (i32.shl (local.get $k) (i32.const 3)))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $l12)))
  )
)

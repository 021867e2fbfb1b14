;; The supernodal LDLᵀ factorization and solve (x ← A⁻¹ x with P A Pᵀ = L D Lᵀ) as WebAssembly,
;; compiled to the bytes embedded in ./kernels.ts by `npm run kernels` (scripts/kernels.mjs, with
;; wabt); a test checks that the embedded bytes are this file's compilation, and that load with
;; factor, solve, and multiply give the bits of SupernodalLdlt.factorJs, solveJs and cscMatVec. The module
;; is kept under 4 KB: browsers have refused to compile larger modules synchronously on the main
;; thread (Chrome's limit was 4 KB; newer versions allow more).
;; The solve (called by solvePerm, which forms w = P x in the kernel's memory from the caller's x and
;; writes x = Pᵀ w back), operation for operation as solveJs, on w:
;; - L z = w over the panels: each column's triangle in place, the rows below summed into acc
;;   and subtracted once per panel;
;; - D and Lᵀ backwards: the rows below gathered into acc, then dot products down each column.
;; All arrays live in the imported memory, at byte offsets given as parameters: f64 arrays Lx
;; (panels), Dinv (reciprocal pivots), w (n), acc (max panel height); i32 arrays first, rowPtr,
;; panelPtr (count + 1 each) and rows (the panels' row lists).
(module
  (import "env" "mem" (memory 1))
  (func $solve
    (param $count i32)
    (param $pLx i32) (param $pDinv i32) (param $pW i32) (param $pAcc i32)
    (param $pFirst i32) (param $pRowPtr i32) (param $pRows i32) (param $pPanel i32)
    (local $J i32) (local $f i32) (local $nc i32) (local $r0 i32) (local $nr i32) (local $b i32)
    (local $c i32) (local $r i32) (local $xc f64) (local $cb i32) (local $s f64) (local $wf i32) (local $t i32)
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
  )

;; x ← A⁻¹ x in the caller's (unpermuted) order, as SupernodalLdlt.solve: w = P x (w[k] =
  ;; x[perm[k]]), the solve above, then x = Pᵀ w. Returns 1 when some entry of the result is not
  ;; finite (v − v is NaN exactly for NaN and ±∞), else 0.
  (func $solvePerm (export "solvePerm")
    (param $n i32) (param $pPerm i32) (param $pX i32) (param $count i32)
    (param $pLx i32) (param $pDinv i32) (param $pW i32) (param $pAcc i32)
    (param $pFirst i32) (param $pRowPtr i32) (param $pRows i32) (param $pPanel i32)
    (result i32)
    (local $k i32) (local $v f64) (local $bad i32)
    (local.set $k (i32.const 0))
    (block $dI (loop $lI
      (br_if $dI (i32.ge_s (local.get $k) (local.get $n)))
      (f64.store (i32.add (local.get $pW) (i32.shl (local.get $k) (i32.const 3)))
        (f64.load (i32.add (local.get $pX)
          (i32.shl (i32.load (i32.add (local.get $pPerm) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 3)))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $lI)))
    (call $solve (local.get $count) (local.get $pLx) (local.get $pDinv) (local.get $pW) (local.get $pAcc)
      (local.get $pFirst) (local.get $pRowPtr) (local.get $pRows) (local.get $pPanel))
    (local.set $k (i32.const 0))
    (block $dO (loop $lO
      (br_if $dO (i32.ge_s (local.get $k) (local.get $n)))
      (local.set $v (f64.load (i32.add (local.get $pW) (i32.shl (local.get $k) (i32.const 3)))))
      (local.set $bad (i32.or (local.get $bad) (f64.ne (f64.sub (local.get $v) (local.get $v)) (f64.const 0))))
      (f64.store (i32.add (local.get $pX)
        (i32.shl (i32.load (i32.add (local.get $pPerm) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 3)))
        (local.get $v))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $lO)))
    (local.get $bad))

  ;; Loads A into the panels (SupernodalLdlt.load, the same operations): Lx = 0, then
  ;; Lx[cPanel[s]] += vals[cSrc[s]] for each entry s of A's lower triangle, vals being A's values
  ;; as the caller copied them into the kernel's memory. Here the scatter's bounds checks cost
  ;; nothing; in JavaScript they doubled its time.
  (func $load (export "load")
    (param $nLx i32) (param $nSrc i32) (param $pLx i32) (param $pVals i32) (param $pCPanel i32) (param $pCSrc i32)
    (local $i i32) (local $a i32)
    (memory.fill (local.get $pLx) (i32.const 0) (i32.shl (local.get $nLx) (i32.const 3)))
    (local.set $i (i32.const 0))
    (block $dS (loop $lS
      (br_if $dS (i32.ge_s (local.get $i) (local.get $nSrc)))
      (local.set $a (i32.add (local.get $pLx)
        (i32.shl (i32.load (i32.add (local.get $pCPanel) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 3))))
      (f64.store (local.get $a) (f64.add (f64.load (local.get $a))
        (f64.load (i32.add (local.get $pVals)
          (i32.shl (i32.load (i32.add (local.get $pCSrc) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 3))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $lS)))
  )

  ;; y = A x for the values last loaded (SupernodalLdlt.multiply: residuals of the step solve),
  ;; column by column in the input CSC pattern (colPtrA, rowsA), skipping zero x_j: the operations
  ;; of cscMatVec (../csc.ts) in its order, so the bits agree.
  (func $multiply (export "multiply")
    (param $n i32) (param $pColPtr i32) (param $pRowsA i32) (param $pVals i32) (param $pX i32) (param $pY i32)
    (local $j i32) (local $k i32) (local $kEnd i32) (local $xj f64) (local $a i32)
    (memory.fill (local.get $pY) (i32.const 0) (i32.shl (local.get $n) (i32.const 3)))
    (local.set $j (i32.const 0))
    (block $dJ (loop $lJ
      (br_if $dJ (i32.ge_s (local.get $j) (local.get $n)))
      (local.set $xj (f64.load (i32.add (local.get $pX) (i32.shl (local.get $j) (i32.const 3)))))
      (if (f64.ne (local.get $xj) (f64.const 0)) (then
        (local.set $k (i32.load (i32.add (local.get $pColPtr) (i32.shl (local.get $j) (i32.const 2)))))
        (local.set $kEnd (i32.load (i32.add (local.get $pColPtr) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 2)))))
        (block $dK (loop $lK
          (br_if $dK (i32.ge_s (local.get $k) (local.get $kEnd)))
          (local.set $a (i32.add (local.get $pY)
            (i32.shl (i32.load (i32.add (local.get $pRowsA) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 3))))
          (f64.store (local.get $a) (f64.add (f64.load (local.get $a))
            (f64.mul (f64.load (i32.add (local.get $pVals) (i32.shl (local.get $k) (i32.const 3)))) (local.get $xj))))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $lK)))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $lJ)))
  )

  ;; The numeric factorization after the panels were loaded with A (SupernodalLdlt.factor): for
  ;; each supernode J, the updates −L_K D_K L_Kᵀ from the earlier supernodes K of its update list,
  ;; one target column at a time (the JavaScript factor takes four at a time; each target entry
  ;; sums the same products in the same order, so the bits agree), then the dense LDLᵀ of the
  ;; panel. Returns −1, or the permuted index of the first zero or non-finite pivot; the numbers
  ;; of positive and negative pivots go to counts[0] and counts[1] (i32).
  (func $factor (export "factor")
    (param $count i32) (param $pLx i32) (param $pD i32) (param $pDinv i32)
    (param $pFirst i32) (param $pRowPtr i32) (param $pRows i32) (param $pPanel i32)
    (param $pUpdPtr i32) (param $pUpdSrc i32) (param $pUpdBeg i32) (param $pUpdEnd i32)
    (param $pLocal i32) (param $pRel i32) (param $pAcc i32) (param $pWd i32) (param $pCounts i32)
    (result i32)
    (local $J i32) (local $f i32) (local $nc i32) (local $r0 i32) (local $nr i32) (local $b i32)
    (local $t i32) (local $e i32) (local $eEnd i32) (local $K i32) (local $p i32) (local $p2 i32)
    (local $fK i32) (local $ncK i32) (local $rK i32) (local $nrK i32) (local $bK i32) (local $q i32)
    (local $col i32) (local $wt f64) (local $dst i32) (local $c i32) (local $c2 i32) (local $cb i32) (local $cb2 i32)
    (local $d f64) (local $di f64) (local $coef f64) (local $r i32) (local $pos i32) (local $neg i32) (local $a i32)
    (local.set $J (i32.const 0))
    (block $dJ (loop $lJ
      (br_if $dJ (i32.ge_s (local.get $J) (local.get $count)))
      (local.set $f (i32.load (i32.add (local.get $pFirst) (i32.shl (local.get $J) (i32.const 2)))))
      (local.set $nc (i32.sub (i32.load (i32.add (local.get $pFirst) (i32.shl (i32.add (local.get $J) (i32.const 1)) (i32.const 2)))) (local.get $f)))
      (local.set $r0 (i32.load (i32.add (local.get $pRowPtr) (i32.shl (local.get $J) (i32.const 2)))))
      (local.set $nr (i32.sub (i32.load (i32.add (local.get $pRowPtr) (i32.shl (i32.add (local.get $J) (i32.const 1)) (i32.const 2)))) (local.get $r0)))
      (local.set $b (i32.load (i32.add (local.get $pPanel) (i32.shl (local.get $J) (i32.const 2)))))
      ;; local[rows[r0 + t]] = t
      (local.set $t (i32.const 0))
      (block $d1 (loop $l1
        (br_if $d1 (i32.ge_s (local.get $t) (local.get $nr)))
        (i32.store (i32.add (local.get $pLocal) (i32.shl (i32.load (i32.add (local.get $pRows) (i32.shl (i32.add (local.get $r0) (local.get $t)) (i32.const 2)))) (i32.const 2)))
          (local.get $t))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $l1)))
      ;; the updates from earlier supernodes
      (local.set $e (i32.load (i32.add (local.get $pUpdPtr) (i32.shl (local.get $J) (i32.const 2)))))
      (local.set $eEnd (i32.load (i32.add (local.get $pUpdPtr) (i32.shl (i32.add (local.get $J) (i32.const 1)) (i32.const 2)))))
      (block $dE (loop $lE
        (br_if $dE (i32.ge_s (local.get $e) (local.get $eEnd)))
        (local.set $K (i32.load (i32.add (local.get $pUpdSrc) (i32.shl (local.get $e) (i32.const 2)))))
        (local.set $p (i32.load (i32.add (local.get $pUpdBeg) (i32.shl (local.get $e) (i32.const 2)))))
        (local.set $p2 (i32.load (i32.add (local.get $pUpdEnd) (i32.shl (local.get $e) (i32.const 2)))))
        (local.set $fK (i32.load (i32.add (local.get $pFirst) (i32.shl (local.get $K) (i32.const 2)))))
        (local.set $ncK (i32.sub (i32.load (i32.add (local.get $pFirst) (i32.shl (i32.add (local.get $K) (i32.const 1)) (i32.const 2)))) (local.get $fK)))
        (local.set $rK (i32.load (i32.add (local.get $pRowPtr) (i32.shl (local.get $K) (i32.const 2)))))
        (local.set $nrK (i32.sub (i32.load (i32.add (local.get $pRowPtr) (i32.shl (i32.add (local.get $K) (i32.const 1)) (i32.const 2)))) (local.get $rK)))
        (local.set $bK (i32.load (i32.add (local.get $pPanel) (i32.shl (local.get $K) (i32.const 2)))))
        ;; rel[q] = local[rows[rK + q]] for q = p … nrK − 1
        (local.set $q (local.get $p))
        (block $d2 (loop $l2
          (br_if $d2 (i32.ge_s (local.get $q) (local.get $nrK)))
          (i32.store (i32.add (local.get $pRel) (i32.shl (local.get $q) (i32.const 2)))
            (i32.load (i32.add (local.get $pLocal) (i32.shl (i32.load (i32.add (local.get $pRows) (i32.shl (i32.add (local.get $rK) (local.get $q)) (i32.const 2)))) (i32.const 2)))))
          (local.set $q (i32.add (local.get $q) (i32.const 1)))
          (br $l2)))
        ;; one target column p at a time
        (block $dP (loop $lP
          (br_if $dP (i32.ge_s (local.get $p) (local.get $p2)))
          ;; wd[t] = D[fK + t] · L_K[p, t]
          (local.set $t (i32.const 0))
          (block $d3 (loop $l3
            (br_if $d3 (i32.ge_s (local.get $t) (local.get $ncK)))
            (f64.store (i32.add (local.get $pWd) (i32.shl (local.get $t) (i32.const 3)))
              (f64.mul (f64.load (i32.add (local.get $pD) (i32.shl (i32.add (local.get $fK) (local.get $t)) (i32.const 3))))
                (f64.load (i32.add (local.get $pLx) (i32.shl (i32.add (i32.add (local.get $bK) (i32.mul (local.get $t) (local.get $nrK))) (local.get $p)) (i32.const 3))))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $l3)))
          ;; acc[p … nrK) = 0
          (local.set $q (local.get $p))
          (block $d4 (loop $l4
            (br_if $d4 (i32.ge_s (local.get $q) (local.get $nrK)))
            (f64.store (i32.add (local.get $pAcc) (i32.shl (local.get $q) (i32.const 3))) (f64.const 0))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $l4)))
          ;; acc[q] += L_K[q, t] wd[t], t in order (a zero wd[t] adds nothing)
          (local.set $t (i32.const 0))
          (block $d5 (loop $l5
            (br_if $d5 (i32.ge_s (local.get $t) (local.get $ncK)))
            (local.set $wt (f64.load (i32.add (local.get $pWd) (i32.shl (local.get $t) (i32.const 3)))))
            (if (f64.ne (local.get $wt) (f64.const 0)) (then
              (local.set $col (i32.add (local.get $pLx) (i32.shl (i32.add (local.get $bK) (i32.mul (local.get $t) (local.get $nrK))) (i32.const 3))))
              (local.set $q (local.get $p))
              (block $d6 (loop $l6
                (br_if $d6 (i32.ge_s (local.get $q) (local.get $nrK)))
                (local.set $a (i32.add (local.get $pAcc) (i32.shl (local.get $q) (i32.const 3))))
                (f64.store (local.get $a) (f64.add (f64.load (local.get $a))
                  (f64.mul (f64.load (i32.add (local.get $col) (i32.shl (local.get $q) (i32.const 3)))) (local.get $wt))))
                (local.set $q (i32.add (local.get $q) (i32.const 1)))
                (br $l6)))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $l5)))
          ;; panel column rel[p] of J −= acc on rows rel[q]
          (local.set $dst (i32.add (local.get $b) (i32.mul (i32.load (i32.add (local.get $pRel) (i32.shl (local.get $p) (i32.const 2)))) (local.get $nr))))
          (local.set $q (local.get $p))
          (block $d7 (loop $l7
            (br_if $d7 (i32.ge_s (local.get $q) (local.get $nrK)))
            (local.set $a (i32.add (local.get $pLx) (i32.shl (i32.add (local.get $dst) (i32.load (i32.add (local.get $pRel) (i32.shl (local.get $q) (i32.const 2))))) (i32.const 3))))
            (f64.store (local.get $a) (f64.sub (f64.load (local.get $a)) (f64.load (i32.add (local.get $pAcc) (i32.shl (local.get $q) (i32.const 3))))))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $l7)))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br $lP)))
        (local.set $e (i32.add (local.get $e) (i32.const 1)))
        (br $lE)))
      ;; dense LDLᵀ of the panel
      (local.set $c (i32.const 0))
      (block $dC (loop $lC
        (br_if $dC (i32.ge_s (local.get $c) (local.get $nc)))
        (local.set $cb (i32.add (local.get $b) (i32.mul (local.get $c) (local.get $nr))))
        (local.set $d (f64.load (i32.add (local.get $pLx) (i32.shl (i32.add (local.get $cb) (local.get $c)) (i32.const 3)))))
        ;; a zero or non-finite pivot (d − d is 0 only for finite d) stops the factorization
        (if (i32.or (f64.eq (local.get $d) (f64.const 0)) (f64.ne (f64.sub (local.get $d) (local.get $d)) (f64.const 0)))
          (then
            (i32.store (local.get $pCounts) (local.get $pos))
            (i32.store (i32.add (local.get $pCounts) (i32.const 4)) (local.get $neg))
            (return (i32.add (local.get $f) (local.get $c)))))
        (local.set $di (f64.div (f64.const 1) (local.get $d)))
        (f64.store (i32.add (local.get $pD) (i32.shl (i32.add (local.get $f) (local.get $c)) (i32.const 3))) (local.get $d))
        (f64.store (i32.add (local.get $pDinv) (i32.shl (i32.add (local.get $f) (local.get $c)) (i32.const 3))) (local.get $di))
        (if (f64.gt (local.get $d) (f64.const 0))
          (then (local.set $pos (i32.add (local.get $pos) (i32.const 1))))
          (else (local.set $neg (i32.add (local.get $neg) (i32.const 1)))))
        ;; later columns of the panel: P[r, c2] −= P[r, c] P[c2, c] / d
        (local.set $c2 (i32.add (local.get $c) (i32.const 1)))
        (block $dC2 (loop $lC2
          (br_if $dC2 (i32.ge_s (local.get $c2) (local.get $nc)))
          (local.set $coef (f64.mul (f64.load (i32.add (local.get $pLx) (i32.shl (i32.add (local.get $cb) (local.get $c2)) (i32.const 3)))) (local.get $di)))
          (if (f64.ne (local.get $coef) (f64.const 0)) (then
            (local.set $cb2 (i32.add (local.get $b) (i32.mul (local.get $c2) (local.get $nr))))
            (local.set $r (local.get $c2))
            (block $dR (loop $lR
              (br_if $dR (i32.ge_s (local.get $r) (local.get $nr)))
              (local.set $a (i32.add (local.get $pLx) (i32.shl (i32.add (local.get $cb2) (local.get $r)) (i32.const 3))))
              (f64.store (local.get $a) (f64.sub (f64.load (local.get $a))
                (f64.mul (f64.load (i32.add (local.get $pLx) (i32.shl (i32.add (local.get $cb) (local.get $r)) (i32.const 3)))) (local.get $coef))))
              (local.set $r (i32.add (local.get $r) (i32.const 1)))
              (br $lR)))))
          (local.set $c2 (i32.add (local.get $c2) (i32.const 1)))
          (br $lC2)))
        ;; column c below the pivot, divided by d
        (local.set $r (i32.add (local.get $c) (i32.const 1)))
        (block $dS (loop $lS
          (br_if $dS (i32.ge_s (local.get $r) (local.get $nr)))
          (local.set $a (i32.add (local.get $pLx) (i32.shl (i32.add (local.get $cb) (local.get $r)) (i32.const 3))))
          ;; entries below 1e-200 are stored as zero (L_TINY in supernodal.ts; NaN is kept)
          (local.set $coef (f64.mul (f64.load (local.get $a)) (local.get $di)))
          (f64.store (local.get $a) (select (f64.const 0) (local.get $coef) (f64.lt (f64.abs (local.get $coef)) (f64.const 1e-200))))
          (local.set $r (i32.add (local.get $r) (i32.const 1)))
          (br $lS)))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $lC)))
      (local.set $J (i32.add (local.get $J) (i32.const 1)))
      (br $lJ)))
    (i32.store (local.get $pCounts) (local.get $pos))
    (i32.store (i32.add (local.get $pCounts) (i32.const 4)) (local.get $neg))
    (i32.const -1))
)

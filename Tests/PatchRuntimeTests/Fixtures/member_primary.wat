;; PMOD member 0 (primary): answers "shared" itself.
(module
  (memory (export "memory") 1)
  (func (export "shared") (result i32) (i32.const 1))
  (func (export "only_primary") (result i32) (i32.const 10)))

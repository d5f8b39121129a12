;; PMOD member 1: its "shared" is shadowed by the primary's; "only_additional" routes here.
(module
  (memory (export "memory") 1)
  (global $initialized (mut i32) (i32.const 0))
  (func (export "_initialize") (global.set $initialized (i32.const 1)))
  (func (export "shared") (result i32) (i32.const 2))
  (func (export "only_additional") (result i32) (i32.add (i32.const 20) (global.get $initialized))))

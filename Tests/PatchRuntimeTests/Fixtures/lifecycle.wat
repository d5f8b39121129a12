;; Reactor lifecycle: _initialize must run exactly once, _start never.
(module
  (memory (export "memory") 1)
  (global $initialized (mut i32) (i32.const 0))
  (func (export "_initialize") (global.set $initialized (i32.add (global.get $initialized) (i32.const 1))))
  (func (export "_start") unreachable)
  (func (export "init_count") (result i32) (global.get $initialized)))

/// How a `RuntimeSession` loads and runs modules.
public struct RuntimeOptions: Sendable {
    public var limits: RuntimeLimits
    /// Apply the device's loadability rules before running anything (default). Off, a module the
    /// device would refuse may still run, which is only useful for debugging the module itself.
    public var enforceParity: Bool
    /// When set, WASI clocks and `random_get` are deterministic functions of this seed (the bridges'
    /// `patch.secure_random_bytes` has its own, `bridges.randomSeed`).
    public var seed: UInt64?
    /// The emulated device's bridges (platform, fixtures, clock, `--allow-missing-imports`…).
    public var bridges: HostBridgeConfiguration
    /// File descriptor receiving the guest's WASI stdout and stderr. Standard error by default, so a
    /// chatty guest can never corrupt the result or the JSON envelope on standard output.
    public var guestOutputDescriptor: Int32

    public init(limits: RuntimeLimits = RuntimeLimits(), enforceParity: Bool = true, seed: UInt64? = nil,
                bridges: HostBridgeConfiguration = HostBridgeConfiguration(), guestOutputDescriptor: Int32 = 2) {
        self.limits = limits
        self.enforceParity = enforceParity
        self.seed = seed
        self.bridges = bridges
        self.guestOutputDescriptor = guestOutputDescriptor
    }

    /// Options under which a module answers the same on every run: WASI's clocks and `random_get` and
    /// the `patch.secure_random_bytes` bridge all seeded with 0. For smoke probes (`build`,
    /// `release`), whose expected values must hold every time.
    public static func reproducible(limits: RuntimeLimits = RuntimeLimits()) -> RuntimeOptions {
        RuntimeOptions(limits: limits, seed: 0, bridges: HostBridgeConfiguration(randomSeed: 0))
    }
}

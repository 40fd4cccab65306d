// Random numbers for the property tests of several test targets.

/// A small seeded generator (SplitMix64): the same seed gives the same
/// numbers on every machine, so a failing case can be replayed from its seed.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`, by remainder: cheap, and fixed for a given seed.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    /// True `percent` times in 100.
    public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}

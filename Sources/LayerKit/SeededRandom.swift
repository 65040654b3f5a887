/// SplitMix64: a small seeded generator, for what LayerKit picks at random (`--transition
/// random`, random Ken Burns moves) and for seeded test sweeps: the same values for a seed on
/// every run, every machine and every shard of a render. The sequence for a seed never changes.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  public var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A double in `range`, from the top 53 bits of one `next()`.
  public mutating func double(in range: ClosedRange<Double>) -> Double {
    range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
  }

  /// `next() % n`, in 0..<n.
  public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

  /// The low bit of one `next()`.
  public mutating func bool() -> Bool { next() & 1 == 1 }
}

/// An RGBA colour with components in 0…1, the role of Core Graphics' `CGColor`.
public final class CGColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let red: CGFloat
    public let green: CGFloat
    public let blue: CGFloat
    public let alpha: CGFloat

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public var components: [CGFloat]? { [red, green, blue, alpha] }

    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.red == rhs.red && lhs.green == rhs.green && lhs.blue == rhs.blue && lhs.alpha == rhs.alpha
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(red); hasher.combine(green); hasher.combine(blue); hasher.combine(alpha)
    }

    public var description: String { "CGColor(r: \(red), g: \(green), b: \(blue), a: \(alpha))" }
}

import Foundation

/// The pace of an animation: a cubic Bézier curve from (0, 0) to (1, 1)
/// whose x is the fraction of the animation's time and whose y is the
/// fraction of its change, as in Core Animation.
///
/// The named curves have Apple's documented control points exactly
/// (`CAMediaTimingFunctionName`): linear (0, 0, 1, 1), ease in
/// (0.42, 0, 1, 1), ease out (0, 0, 0.58, 1), ease in-out
/// (0.42, 0, 0.58, 1) and default (0.25, 0.1, 0.25, 1). A value of the
/// curve is found by solving x(s) = t for the curve's parameter s (Newton's
/// method, then bisection where Newton stalls) to within 1e-12, then
/// evaluating y(s): no polynomial stand-in.
@preconcurrency @MainActor
open class CAMediaTimingFunction: NSObject {
    /// The two inner control points; the outer ones are (0, 0) and (1, 1).
    private let c1: (x: Double, y: Double)
    private let c2: (x: Double, y: Double)

    /// The curve with control points (0, 0), (c1x, c1y), (c2x, c2y), (1, 1).
    /// The x coordinates are clamped to 0…1, as Core Animation requires
    /// them there (the curve must be a function of time); the y
    /// coordinates may leave 0…1 for curves that overshoot.
    public convenience init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.init(points: (Double(c1x), Double(c1y), Double(c2x), Double(c2y)))
    }

    /// One of the named curves, its points exact (not rounded to `Float`).
    public convenience init(name: CAMediaTimingFunctionName) {
        self.init(points: Self.controlPoints(of: name))
    }

    private init(points p: (Double, Double, Double, Double)) {
        func clampedX(_ v: Double) -> Double { v.isFinite ? min(1, max(0, v)) : 0 }
        func finiteY(_ v: Double) -> Double { v.isFinite ? v : 0 }
        c1 = (clampedX(p.0), finiteY(p.1))
        c2 = (clampedX(p.2), finiteY(p.3))
        super.init()
    }

    /// Apple's published control points of each named curve.
    static func controlPoints(of name: CAMediaTimingFunctionName) -> (Double, Double, Double, Double) {
        switch name {
        case .easeIn: (0.42, 0, 1, 1)
        case .easeOut: (0, 0, 0.58, 1)
        case .easeInEaseOut: (0.42, 0, 0.58, 1)
        case .default: (0.25, 0.1, 0.25, 1)
        default: (0, 0, 1, 1)
        }
    }

    /// Writes control point `idx` (0…3) into `ptr` as two floats (x, y).
    /// An index outside 0…3 writes nothing.
    public func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        let point: (Double, Double)
        switch idx {
        case 0: point = (0, 0)
        case 1: point = c1
        case 2: point = c2
        case 3: point = (1, 1)
        default: return
        }
        ptr[0] = Float(point.0)
        ptr[1] = Float(point.1)
    }

    /// The control points as doubles, for comparing curves.
    package var controlPoints: [Double] { [c1.x, c1.y, c2.x, c2.y] }

    /// Whether the curve is the straight line y = x.
    package var isLinear: Bool { c1.x == c1.y && c2.x == c2.y }

    /// The fraction of change at `time`, a fraction of the duration in 0…1
    /// (clamped).
    package func value(at time: Double) -> Double {
        if isLinear { return min(1, max(0, time)) }
        let t = min(1, max(0, time))
        if t == 0 || t == 1 { return t }
        return Self.bezier(c1.y, c2.y, parameter(forX: t))
    }

    /// The time fraction whose value is `progress` (the inverse of
    /// `value(at:)`), for curves whose value only rises; found by bisection.
    package func time(forValue progress: Double) -> Double {
        if isLinear { return min(1, max(0, progress)) }
        var low = 0.0, high = 1.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if value(at: mid) < progress { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// One coordinate of the cubic Bézier with end points 0 and 1.
    private static func bezier(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private static func bezierSlope(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }

    /// The curve's parameter s with x(s) = `x`. x(s) rises monotonically on
    /// 0…1 (its control x coordinates lie in 0…1), so bisection always
    /// converges; Newton's steps get there in a few iterations first.
    private func parameter(forX x: Double) -> Double {
        let tolerance = 1e-12
        var s = x
        for _ in 0..<8 {
            let error = Self.bezier(c1.x, c2.x, s) - x
            if abs(error) < tolerance { return s }
            let slope = Self.bezierSlope(c1.x, c2.x, s)
            if abs(slope) < 1e-9 { break }
            s -= error / slope
            if s < 0 || s > 1 { break }
        }
        var low = 0.0, high = 1.0
        s = x
        for _ in 0..<64 {
            let value = Self.bezier(c1.x, c2.x, s)
            if abs(value - x) < tolerance { return s }
            if value < x { low = s } else { high = s }
            s = (low + high) / 2
        }
        return s
    }

    nonisolated open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CAMediaTimingFunction else { return false }
        return c1 == other.c1 && c2 == other.c2
    }

    nonisolated open override var hash: Int { c1.x.hashValue ^ c2.y.hashValue }

    nonisolated open override var description: String {
        "CAMediaTimingFunction(\(c1.x), \(c1.y), \(c2.x), \(c2.y))"
    }
}

/// The names of Core Animation's predefined timing curves.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Even pace: (0, 0, 1, 1).
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// Starts slowly: (0.42, 0, 1, 1).
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// Ends slowly: (0, 0, 0.58, 1).
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// Starts and ends slowly: (0.42, 0, 0.58, 1).
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// The curve of most system animations: (0.25, 0.1, 0.25, 1).
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

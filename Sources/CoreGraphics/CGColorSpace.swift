/// The model of a colour space: how many components a colour in it has.
public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1
    case monochrome = 0
    case rgb = 1
    case cmyk = 2
    case lab = 3
    case deviceN = 4
    case indexed = 5
    case pattern = 6
    case XYZ = 7
}

/// A colour space. Drawing here is in sRGB: the device RGB space is sRGB, as
/// on iOS, and gray is sRGB's gray. Other named spaces (Display P3, linear
/// and extended ranges) are not managed, so `init(name:)` returns nil for
/// them rather than pretend to convert.
public final class CGColorSpace: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The space's name, one of the static names below.
    public let name: String?
    public let model: CGColorSpaceModel

    /// The standard RGB space of the web and of iOS displays.
    public static let sRGB = "kCGColorSpaceSRGB"
    /// sRGB's gray, with the sRGB transfer curve (gamma about 2.2).
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    /// The names `CGColorSpaceCreateDeviceRGB()` and
    /// `CGColorSpaceCreateDeviceGray()` give their spaces.
    public static let deviceRGB = "kCGColorSpaceDeviceRGB"
    public static let deviceGray = "kCGColorSpaceDeviceGray"

    /// The space with that name, or nil for a space that is not managed.
    public init?(name: String) {
        switch name {
        case Self.sRGB, Self.deviceRGB: model = .rgb
        case Self.genericGrayGamma2_2, Self.deviceGray: model = .monochrome
        default: return nil
        }
        self.name = name
    }

    /// The number of colour components, without alpha.
    public var numberOfComponents: Int { model == .monochrome ? 1 : 3 }

    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { "CGColorSpace(\(name ?? "unnamed"))" }
}

/// The device's RGB space, which is sRGB: one shared space (spaces never
/// change), so that a view's backing store does not make one each time.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace {
    CGColorSpace.deviceRGBSpace
}

extension CGColorSpace {
    static let deviceRGBSpace = CGColorSpace(name: CGColorSpace.deviceRGB)!
}

/// The device's gray space.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace {
    CGColorSpace(name: CGColorSpace.deviceGray)!
}

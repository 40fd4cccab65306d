/// Where alpha is in a pixel and whether the colour is premultiplied by it.
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0
    case premultipliedLast = 1
    case premultipliedFirst = 2
    case last = 3
    case first = 4
    case noneSkipLast = 5
    case noneSkipFirst = 6
    case alphaOnly = 7
}

/// The byte order of a pixel's components, part of `CGBitmapInfo`.
public enum CGImageByteOrderInfo: UInt32, Sendable {
    case orderMask = 0x7000
    case orderDefault = 0
    case order16Little = 0x1000
    case order32Little = 0x2000
    case order16Big = 0x3000
    case order32Big = 0x4000
}

/// The layout of a bitmap's pixels: an alpha info in the low bits, a byte
/// order in bits 12–14.
public struct CGBitmapInfo: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 0x1000)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 0x2000)
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 0x3000)
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 0x4000)
    public static let byteOrderDefault = CGBitmapInfo([])

    /// The alpha info part, or nil when the bits name none.
    public var alphaInfo: CGImageAlphaInfo? { CGImageAlphaInfo(rawValue: rawValue & Self.alphaInfoMask.rawValue) }

    /// The byte order part.
    public var byteOrderInfo: CGImageByteOrderInfo? { CGImageByteOrderInfo(rawValue: rawValue & Self.byteOrderMask.rawValue) }
}

/// How colours outside a space's gamut are mapped; recorded, not acted on
/// (all drawing is in sRGB).
public enum CGColorRenderingIntent: Int32, Sendable {
    case defaultIntent = 0
    case absoluteColorimetric = 1
    case relativeColorimetric = 2
    case perceptual = 3
    case saturation = 4
}

/// How an image is sampled when drawn at another size or through a transform.
public enum CGInterpolationQuality: Int32, Sendable {
    /// `.default`, `.low`, `.medium` and `.high` all filter bilinearly.
    case `default` = 0
    /// Nearest pixel, no filtering.
    case none = 1
    case low = 2
    case medium = 4
    case high = 3
}

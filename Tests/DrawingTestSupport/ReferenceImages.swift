import CoreGraphics
import Foundation
import Testing

// Pixel assertions shared by the test targets that draw: probes of single
// pixels, and whole pictures compared with reference PNGs under Tests/.

/// The pixel at column `x`, row `y` (row 0 at the top), premultiplied R G B A.
public func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
    let p = image.pixels.pixel(x: x, y: y)
    return [p.red, p.green, p.blue, p.alpha]
}

/// Whether two colours differ by at most `tolerance` in every component.
public func close(_ lhs: [UInt8], _ rhs: [UInt8], tolerance: Int) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
}

/// How two images differ.
public struct ImageDifference {
    /// Pixels where some component differs by more than the tolerance.
    public var differingPixels: Int
    /// The largest difference of any component.
    public var largestDifference: Int
    /// Red where pixels differ beyond the tolerance, the reference faded to
    /// gray elsewhere; nil when the sizes differ or no pixel differs.
    public var diffImage: CGImage?
}

/// Compares two images pixel by pixel. The pixels are read as whole 32-bit
/// words straight from memory (R G B A bytes), and the diff image is drawn
/// only when some pixel differs: a picture of a few hundred thousand pixels
/// is compared in a small fraction of the time per-pixel colour values took
/// in debug builds.
public func difference(_ actual: CGImage, _ reference: CGImage, tolerance: Int) -> ImageDifference {
    guard actual.width == reference.width, actual.height == reference.height else {
        return ImageDifference(differingPixels: max(actual.width * actual.height, 1), largestDifference: 255, diffImage: nil)
    }
    let width = actual.width, height = actual.height
    let actualPixels = actual.pixels, referencePixels = reference.pixels
    /// The largest difference of any component of the pixels at `x`, `y`.
    func componentDifference(_ x: Int, _ y: Int) -> Int {
        let a = actualPixels.row(y).loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
        let r = referencePixels.row(y).loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
        if a == r { return 0 }
        var largest = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            largest = max(largest, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((r >> UInt32(shift)) & 0xFF)))
        }
        return largest
    }
    var differing = 0, largest = 0
    for y in 0..<height {
        for x in 0..<width {
            let d = componentDifference(x, y)
            largest = max(largest, d)
            if d > tolerance { differing += 1 }
        }
    }
    guard differing > 0 else { return ImageDifference(differingPixels: 0, largestDifference: largest, diffImage: nil) }
    var marks = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        let referenceRow = referencePixels.row(y)
        for x in 0..<width {
            let i = (y * width + x) * 4
            if componentDifference(x, y) > tolerance {
                (marks[i], marks[i + 1], marks[i + 2], marks[i + 3]) = (255, 0, 0, 255)
            } else {
                let red = Int(referenceRow.load(fromByteOffset: x * 4, as: UInt8.self))
                let green = Int(referenceRow.load(fromByteOffset: x * 4 + 1, as: UInt8.self))
                let blue = Int(referenceRow.load(fromByteOffset: x * 4 + 2, as: UInt8.self))
                let gray = UInt8(128 + (red + green + blue) / 12)
                (marks[i], marks[i + 1], marks[i + 2], marks[i + 3]) = (gray, gray, gray, 255)
            }
        }
    }
    let diff = CGImage(width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32,
                       bytesPerRow: width * 4, space: CGColorSpaceCreateDeviceRGB(),
                       bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
                       provider: CGDataProvider(data: Data(marks))!, decode: nil, shouldInterpolate: false, intent: .defaultIntent)
    return ImageDifference(differingPixels: differing, largestDifference: largest, diffImage: diff)
}

/// Where failed comparisons leave the actual picture and the diff.
public let referenceFailureDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("openuikit-image-diffs")

/// Records an issue unless `image` matches `References/<name>.png` beside the
/// calling test file, every component within `tolerance`, at most
/// `allowedDifferingPixels` pixels beyond it. On a mismatch the actual
/// picture and a diff image are written to `referenceFailureDirectory`
/// and named in the issue. A missing reference is written from `image`
/// and reported as an issue, so a new reference is always looked at
/// before it is committed; set `OPENUIKIT_RECORD_REFERENCES=1` to rewrite
/// references on purpose.
public func expectMatchesReference(
    _ image: CGImage, named name: String, tolerance: Int = 2, allowedDifferingPixels: Int = 0,
    filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("References")
    let referenceURL = directory.appendingPathComponent("\(name).png")
    let recording = ProcessInfo.processInfo.environment["OPENUIKIT_RECORD_REFERENCES"] == "1"
    guard !recording, let data = try? Data(contentsOf: referenceURL) else {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try image.pngData().write(to: referenceURL)
            Issue.record("Recorded reference image \(referenceURL.path); look at it, then run again", sourceLocation: sourceLocation)
        } catch {
            Issue.record("Could not record reference \(referenceURL.path): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    let reference: CGImage
    do {
        reference = try CGImage.decode(data)
    } catch {
        Issue.record("Reference \(referenceURL.path) does not decode: \(error)", sourceLocation: sourceLocation)
        return
    }
    let result = difference(image, reference, tolerance: tolerance)
    guard result.differingPixels > allowedDifferingPixels else { return }
    try? FileManager.default.createDirectory(at: referenceFailureDirectory, withIntermediateDirectories: true)
    let actualURL = referenceFailureDirectory.appendingPathComponent("\(name)-actual.png")
    let diffURL = referenceFailureDirectory.appendingPathComponent("\(name)-diff.png")
    try? image.pngData().write(to: actualURL)
    if let diff = result.diffImage { try? diff.pngData().write(to: diffURL) }
    Issue.record(
        "\(name): \(result.differingPixels) pixels differ by more than \(tolerance) (largest \(result.largestDifference)); actual \(actualURL.path), diff \(diffURL.path)",
        sourceLocation: sourceLocation
    )
}

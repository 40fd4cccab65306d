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
    /// gray elsewhere; nil when the sizes differ.
    public var diffImage: CGImage?
}

/// Compares two images pixel by pixel.
public func difference(_ actual: CGImage, _ reference: CGImage, tolerance: Int) -> ImageDifference {
    guard actual.width == reference.width, actual.height == reference.height else {
        return ImageDifference(differingPixels: max(actual.width * actual.height, 1), largestDifference: 255, diffImage: nil)
    }
    var differing = 0, largest = 0
    var marks = [UInt8](repeating: 0, count: actual.width * actual.height * 4)
    for y in 0..<actual.height {
        for x in 0..<actual.width {
            let a = rgba(actual, x, y), r = rgba(reference, x, y)
            let d = zip(a, r).map { abs(Int($0) - Int($1)) }.max()!
            largest = max(largest, d)
            let i = (y * actual.width + x) * 4
            if d > tolerance {
                differing += 1
                (marks[i], marks[i + 1], marks[i + 2], marks[i + 3]) = (255, 0, 0, 255)
            } else {
                let gray = UInt8(128 + (Int(r[0]) + Int(r[1]) + Int(r[2])) / 12)
                (marks[i], marks[i + 1], marks[i + 2], marks[i + 3]) = (gray, gray, gray, 255)
            }
        }
    }
    let diff = CGImage(width: actual.width, height: actual.height, bitsPerComponent: 8, bitsPerPixel: 32,
                       bytesPerRow: actual.width * 4, space: CGColorSpaceCreateDeviceRGB(),
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

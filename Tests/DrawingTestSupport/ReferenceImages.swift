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

/// Compares two images pixel by pixel. The loop reads the images' memory
/// directly: the suite compares pictures of a few million pixels in debug
/// builds, where a per-pixel array and `zip` took most of its time.
public func difference(_ actual: CGImage, _ reference: CGImage, tolerance: Int) -> ImageDifference {
    guard actual.width == reference.width, actual.height == reference.height else {
        return ImageDifference(differingPixels: max(actual.width * actual.height, 1), largestDifference: 255, diffImage: nil)
    }
    let width = actual.width, height = actual.height
    let actualPixels = actual.pixels, referencePixels = reference.pixels
    var differing = 0, largest = 0
    var marks = [UInt8](repeating: 0, count: width * height * 4)
    marks.withUnsafeMutableBytes { marks in
        for y in 0..<height {
            let a = UnsafeRawPointer(actualPixels.row(y)), r = UnsafeRawPointer(referencePixels.row(y))
            for byte in stride(from: 0, to: width * 4, by: 4) {
                var d = 0
                if a.loadUnaligned(fromByteOffset: byte, as: UInt32.self) != r.loadUnaligned(fromByteOffset: byte, as: UInt32.self) {
                    for component in byte..<byte + 4 {
                        d = max(d, abs(Int(a.load(fromByteOffset: component, as: UInt8.self)) - Int(r.load(fromByteOffset: component, as: UInt8.self))))
                    }
                }
                largest = max(largest, d)
                let i = y * width * 4 + byte
                if d > tolerance {
                    differing += 1
                    (marks[i], marks[i + 1], marks[i + 2], marks[i + 3]) = (255, 0, 0, 255)
                } else {
                    let sum = Int(r.load(fromByteOffset: byte, as: UInt8.self)) + Int(r.load(fromByteOffset: byte + 1, as: UInt8.self))
                        + Int(r.load(fromByteOffset: byte + 2, as: UInt8.self))
                    let gray = UInt8(128 + sum / 12)
                    (marks[i], marks[i + 1], marks[i + 2], marks[i + 3]) = (gray, gray, gray, 255)
                }
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

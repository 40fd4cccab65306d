import Foundation
import UIKit

/// The screen's picture as the page gets it: PNG, one pixel per point
/// (the picture is for seeing, and a smaller PNG keeps the page live).
enum FramePicture {
    /// A PNG of `width` × `height` RGBA pixels (premultiplied, rows
    /// `width * 4` bytes apart) that `fill` writes; nil if it cannot be made.
    static func png(width: Int, height: Int, fill: (UnsafeMutableRawPointer) -> Void) -> Data? {
        let image = CGImage(width: width, height: height) { buffer in fill(buffer.base) }
        return try? image?.pngData()
    }

    /// Averages each `scale` × `scale` block of `source` (RGBA,
    /// premultiplied, rows `stride` bytes apart) into one pixel of
    /// `destination` (`width` × `height`, rows `width * 4` bytes apart):
    /// a frame in the screen's pixels drawn at one pixel per point.
    static func shrink(
        _ source: UnsafeRawPointer, stride: Int, by scale: Int,
        into destination: UnsafeMutableRawPointer, width: Int, height: Int
    ) {
        let samples = UInt32(scale * scale)
        let from = source.assumingMemoryBound(to: UInt8.self)
        let to = destination.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                var sums: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                for dy in 0..<scale {
                    let row = from + (y * scale + dy) * stride + x * scale * 4
                    for dx in 0..<scale {
                        let pixel = row + dx * 4
                        sums.0 += UInt32(pixel[0])
                        sums.1 += UInt32(pixel[1])
                        sums.2 += UInt32(pixel[2])
                        sums.3 += UInt32(pixel[3])
                    }
                }
                let out = to + (y * width + x) * 4
                out[0] = UInt8((sums.0 + samples / 2) / samples)
                out[1] = UInt8((sums.1 + samples / 2) / samples)
                out[2] = UInt8((sums.2 + samples / 2) / samples)
                out[3] = UInt8((sums.3 + samples / 2) / samples)
            }
        }
    }
}

// The "labels" scene: 40 single-line labels "Row N: the quick brown fox
// jumps", N = 0…39, in the 17 pt system font, black on white, each at
// (32, 40 + 60·N), on a 1170×2532 pt screen at scale 1 (points are pixels).
//
// One frame lays every label out (its text set again, so nothing of the
// previous frame's layout is reused, then sizeToFit) and draws it
// (drawText(in:) into the screen's bitmap, through the label's own
// transform). The screen is filled white once, before timing: the figure
// is text only. Warm: the glyph caches hold every glyph from earlier
// frames. Cold: before each frame every face forgets its rasterized
// glyphs, character map lookups, advances and kerning pairs (the fonts stay
// open), so the frame shapes and rasterizes from scratch.

import CoreGraphics
import UIKit

struct LabelsResult {
    /// Elapsed milliseconds per frame, and this thread's CPU milliseconds.
    var warm: Samples, warmCPU: Samples
    var cold: Samples, coldCPU: Samples
}

/// The screen and its 40 labels.
@MainActor
final class LabelsScene {
    let screen: CGContext
    let texts = (0..<40).map { "Row \($0): the quick brown fox jumps" }
    let labels: [UILabel]

    init() {
        let width = 1170, height = 2532
        guard let screen = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                                     space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { fail("no 1170×2532 bitmap context") }
        screen.setFillColor(UIColor.white.cgColor)
        screen.fill(CGRect(x: 0, y: 0, width: width, height: height))
        // UIKit's user space: y down.
        screen.translateBy(x: 0, y: CGFloat(height))
        screen.scaleBy(x: 1, y: -1)
        self.screen = screen
        let font = UIFont.systemFont(ofSize: 17)
        labels = texts.map { _ in
            let label = UILabel()
            label.font = font
            label.textColor = .black
            return label
        }
    }

    /// Lays every label out and draws it.
    func frame() {
        UIGraphicsPushContext(screen)
        for (n, label) in labels.enumerated() {
            label.text = texts[n]
            label.sizeToFit()
            label.frame.origin = CGPoint(x: 32, y: 40 + 60 * CGFloat(n))
            screen.saveGState()
            screen.translateBy(x: label.frame.minX, y: label.frame.minY)
            label.drawText(in: label.bounds)
            screen.restoreGState()
        }
        UIGraphicsPopContext()
    }
}

@MainActor
func measureLabels(runs: Int, framesPerRun: Int) -> LabelsResult {
    let scene = LabelsScene()
    scene.frame()
    verifyLabels(scene.screen, labels: scene.labels)

    func timed(cold: Bool) -> (elapsed: Double, cpu: Double) {
        var elapsed: UInt64 = 0, cpu: UInt64 = 0
        for _ in 0..<framesPerRun {
            if cold { FontFace.purgeAllGlyphImages() }
            let start = monotonicNanoseconds(), startCPU = threadCPUNanoseconds()
            scene.frame()
            cpu += threadCPUNanoseconds() - startCPU
            elapsed += monotonicNanoseconds() - start
        }
        return (Double(elapsed) / Double(framesPerRun) / 1e6, Double(cpu) / Double(framesPerRun) / 1e6)
    }
    let warm = (0..<runs).map { _ in timed(cold: false) }
    let cold = (0..<runs).map { _ in timed(cold: true) }
    return LabelsResult(warm: Samples(values: warm.map(\.elapsed)), warmCPU: Samples(values: warm.map(\.cpu)),
                        cold: Samples(values: cold.map(\.elapsed)), coldCPU: Samples(values: cold.map(\.cpu)))
}

/// The counted run of the labels scene: frames with warm glyph caches,
/// after one frame that fills them and is checked.
@MainActor
func runCountedLabels() {
    let scene = LabelsScene()
    scene.frame()
    verifyLabels(scene.screen, labels: scene.labels)
    countedLabelFrames(scene)
    countedRegionEnded()
    print("counted labels: \(CountedOperations.labelFrames) operations")
}

@inline(never) @MainActor
func countedLabelFrames(_ scene: LabelsScene) {
    for _ in 0..<CountedOperations.labelFrames { scene.frame() }
}

/// Every label's ink is inside its frame (a pixel of anti-aliasing aside),
/// and every label drew some.
@MainActor
private func verifyLabels(_ screen: CGContext, labels: [UILabel]) {
    let bytes = screen.data!.assumingMemoryBound(to: UInt8.self)
    var inkPerLabel = Array(repeating: 0, count: labels.count)
    let frames = labels.map { $0.frame.insetBy(dx: -1, dy: -1) }
    for y in 0..<screen.height {
        for x in 0..<screen.width where bytes[y * screen.bytesPerRow + x * 4] != 255 {
            let point = CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)
            guard let index = frames.firstIndex(where: { $0.contains(point) }) else {
                fail("labels: ink at (\(x), \(y)) outside every label")
            }
            inkPerLabel[index] += 1
        }
    }
    if let blank = inkPerLabel.firstIndex(of: 0) { fail("labels: label \(blank) drew nothing") }
}

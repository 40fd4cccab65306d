// Scroll benchmark: CPU time per simulated 60 Hz frame while a list of
// 1,000 rows (44 pt each, one view per row) decelerates after a fling.
//
// The list fills a 390×844 window. Each fling is a touch down, six moves of
// 50 pt 1/60 s apart and a lift (3 pt/ms upward), sent through the
// synthesizer; it is not timed. Then the clock is advanced one frame at a
// time until the list stops, and that is timed: the frame timer, the decay
// step, the content offset (the scroll view's bounds) and a delegate's
// `scrollViewDidScroll`. Thread CPU time, so that other processes on the
// machine do not count.

#if canImport(Glibc)
import Glibc
#endif
import UIKit

/// Counts the frames (each moves the content once).
@MainActor
private final class FrameCounter: UIScrollViewDelegate {
    var frames = 0
    func scrollViewDidScroll(_ scrollView: UIScrollView) { frames += 1 }
}


/// µs of CPU per frame of deceleration, over `flingsPerRun` flings per run.
@MainActor
func measureScrollDeceleration() -> Samples {
    UIApplication.shared.resetForTesting()
    UIApplication.shared.diagnostics.handler = nil
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
    window.makeKeyAndVisible()
    let list = UIScrollView(frame: window.bounds)
    let rows = 1_000, rowHeight: CGFloat = 44
    list.contentSize = CGSize(width: 390, height: CGFloat(rows) * rowHeight)
    for row in 0..<rows {
        list.addSubview(UIView(frame: CGRect(x: 0, y: CGFloat(row) * rowHeight, width: 390, height: rowHeight)))
    }
    window.addSubview(list)
    let counter = FrameCounter()
    list.delegate = counter
    let synthesizer = TouchSynthesizer(window: window)
    let frame = 1 / TimeInterval(UIScreen.main.maximumFramesPerSecond)

    /// Flings from the top; returns the frames and CPU nanoseconds of the deceleration.
    func flingAndDecelerate() -> (frames: Int, nanoseconds: UInt64) {
        list.setContentOffset(.zero, animated: false)
        let finger = synthesizer.touchDown(at: CGPoint(x: 195, y: 700))
        for step in 1...6 {
            synthesizer.advance(by: frame)
            synthesizer.touchMove(finger, to: CGPoint(x: 195, y: 700 - CGFloat(step) * 50))
        }
        synthesizer.touchUp(finger)
        guard list.isDecelerating else { fail("the list does not decelerate after a fling") }
        counter.frames = 0
        let start = threadCPUNanoseconds()
        while list.isDecelerating { synthesizer.advance(by: frame) }
        return (counter.frames, threadCPUNanoseconds() - start)
    }

    // A fling of 3 pt/ms coasts about 1,500 pt, for about 4 s: some 240 frames.
    let check = flingAndDecelerate()
    guard check.frames > 200, list.contentOffset.y > 1_500, list.contentOffset.y <= list.contentSize.height - list.bounds.height else {
        fail("a fling decelerated over \(check.frames) frames to \(list.contentOffset.y)")
    }
    let flingsPerRun = options.quick ? 10 : 50
    let result = sample(options.runCount) {
        var frames = 0, nanoseconds: UInt64 = 0
        for _ in 0..<flingsPerRun {
            let fling = flingAndDecelerate()
            frames += fling.frames
            nanoseconds += fling.nanoseconds
        }
        return Double(nanoseconds) / Double(frames) / 1000
    }
    let problems = UIApplication.shared.diagnostics.entries
    if !problems.isEmpty { fail("the application reported \(problems.count) problems, first: \(problems[0])") }
    return result
}

#if canImport(Glibc)
import Glibc
#endif
import UIKit

/// A table of 10,000 rows flung at 120 Hz: what one display refresh of a
/// scrolling list costs, from the scroll view's motion to the frame buffer.
///
/// A plain `UITableView` of standard `.default` cells ("Row N", a chevron),
/// 44 pt rows, filling a 390×844 pt screen at scale 3 (1170×2532 pixels)
/// whose display refreshes at 120 Hz. A fling is a touch down, six moves of
/// 60 pt 1/120 s apart and a lift, through the synthesizer (not timed).
/// Then each frame is timed: the run loop's clock advances one refresh
/// (the display link moves the content offset), the table lays out (cells
/// of rows that left go to the reuse queue, rows that came get one, with
/// their text set and drawn), the transaction commits, and the compositor
/// draws the damaged part of the frame. Thread CPU time, so that other
/// processes do not count. When the table stops, it goes back to the top
/// (not timed) for the next fling.
///
/// Made with `composites: false`, the scene never asks the compositor for a
/// frame: each refresh is the run loop's turn alone (motion, layout and
/// reuse, drawing new cells' text, commit), UIKit's part of the frame, which
/// `--count table-turn` counts under callgrind quickly enough for the
/// benchmark guard.
@MainActor
final class TableScene: UITableViewDataSource {
    static let rows = 10_000
    static let frameInterval: TimeInterval = 1.0 / 120
    let window: UIWindow
    let table: UITableView
    let compositor: LayerCompositor
    private let synthesizer: TouchSynthesizer
    private let titles = (0..<TableScene.rows).map { "Row \($0)" }
    private let composites: Bool

    init(composites: Bool = true) throws {
        self.composites = composites
        let application = UIApplication.shared
        application.resetForTesting()
        application.runLoop.useManualClock()
        UIScreen.main.bounds = CGRect(x: 0, y: 0, width: 390, height: 844)
        UIScreen.main.scale = 3
        UIScreen.main.maximumFramesPerSecond = 120
        window = UIWindow(frame: UIScreen.main.bounds)
        window.makeKeyAndVisible()
        table = UITableView(frame: window.bounds, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.rowHeight = 44
        synthesizer = TouchSynthesizer(window: window)
        compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 1170, pixelHeight: 2532, scale: 3)
        table.dataSource = self
        window.addSubview(table)
        application.runLoop.runUntilIdle()
        compositor.backgroundColor = UIColor.white.cgColor
        if composites { compositor.renderFrame() }
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { Self.rows }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.textLabel?.text = titles[indexPath.row]
        cell.accessoryType = .disclosureIndicator
        return cell
    }

    /// Flings the table upwards from wherever it is (back at the top if it
    /// is near the end); the frames that follow are the deceleration's.
    func fling() {
        if table.contentOffset.y > CGFloat(Self.rows - 400) * 44 {
            table.setContentOffset(.zero, animated: false)
        }
        let finger = synthesizer.touchDown(at: CGPoint(x: 195, y: 760))
        for step in 1...6 {
            synthesizer.advance(by: Self.frameInterval)
            synthesizer.touchMove(finger, to: CGPoint(x: 195, y: 760 - CGFloat(step) * 60))
        }
        synthesizer.touchUp(finger)
        if composites { compositor.renderFrame() }
    }

    var isMoving: Bool { table.isDecelerating }

    /// One display refresh: the motion, the table's layout and reuse, the
    /// commit, and the damaged frame.
    func frame() {
        synthesizer.advance(by: Self.frameInterval)
        if composites { compositor.renderFrame() }
    }

    /// CPU nanoseconds of every frame of `flings` flings' decelerations:
    /// the whole frame, and its two parts — the run loop's turn (motion,
    /// the table's layout and reuse, drawing new cells' text, commit) and
    /// the compositor's damaged frame.
    func measureFrames(flings: Int) -> (frame: [UInt64], turn: [UInt64], composite: [UInt64]) {
        var frames: [UInt64] = [], turns: [UInt64] = [], composites: [UInt64] = []
        for _ in 0..<flings {
            fling()
            while isMoving {
                let start = threadCPUNanoseconds()
                synthesizer.advance(by: Self.frameInterval)
                let turned = threadCPUNanoseconds()
                compositor.renderFrame()
                let end = threadCPUNanoseconds()
                frames.append(end - start)
                turns.append(turned - start)
                composites.append(end - turned)
            }
        }
        return (frames, turns, composites)
    }

    /// A fling moves the table far, with no more cells than fit plus one,
    /// each at its row.
    func verify() {
        let start = table.contentOffset.y
        fling()
        var frames = 0
        var cells = Set<ObjectIdentifier>()
        while isMoving {
            frame()
            frames += 1
            for cell in table.visibleCells { cells.insert(ObjectIdentifier(cell)) }
        }
        let travelled = table.contentOffset.y - start
        guard frames > 100, travelled > 2_000 else {
            fail("table: a fling moved \(travelled) pt over \(frames) frames")
        }
        let visible = table.visibleCells
        // 844 / 44 = 19.2: at most 21 rows show at once, and reuse keeps to about that many cells.
        guard visible.count <= 21, cells.count <= 24 else {
            fail("table: \(visible.count) cells visible, \(cells.count) used over the fling")
        }
        for cell in visible where cell.frame != table.rectForRow(at: table.indexPath(for: cell)!) {
            fail("table: a cell at \(cell.frame) is not at its row")
        }
        let problems = UIApplication.shared.diagnostics.entries
        if !problems.isEmpty { fail("table: the application reported \(problems[0])") }
    }
}

/// Stops the program with a message: a benchmark whose result is wrong.
func fail(_ message: String) -> Never {
    print("error: \(message)")
    exit(1)
}

func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

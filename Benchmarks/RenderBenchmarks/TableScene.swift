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
    /// Rows given a cell so far: one each time a row comes into view.
    private(set) var rowsBroughtIntoView = 0

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
        rowsBroughtIntoView += 1
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
    /// With each frame, the pixels the compositor drew (not those it
    /// moved), whether it moved any, and whether the content offset was off
    /// the pixel grid: to tell what the slowest frames are.
    func measureFrames(flings: Int) -> (frame: [UInt64], turn: [UInt64], composite: [UInt64], drawnPixels: [Int], copied: [Bool], offGrid: [Bool]) {
        var frames: [UInt64] = [], turns: [UInt64] = [], composites: [UInt64] = []
        var drawnPixels: [Int] = [], copied: [Bool] = [], offGrid: [Bool] = []
        for _ in 0..<flings {
            fling()
            while isMoving {
                let start = threadCPUNanoseconds()
                synthesizer.advance(by: Self.frameInterval)
                let turned = threadCPUNanoseconds()
                let damage = compositor.tree.damage.rects, scrolls = compositor.tree.scrolls.count
                compositor.renderFrame()
                let end = threadCPUNanoseconds()
                frames.append(end - start)
                turns.append(turned - start)
                composites.append(end - turned)
                drawnPixels.append(damage.reduce(0) { $0 + $1.area })
                copied.append(scrolls > 0)
                let pixelOffset = table.layer.bounds.minY  // what the commit copies
                offGrid.append(abs(pixelOffset * 3 - (pixelOffset * 3).rounded()) > 1e-6)
            }
        }
        return (frames, turns, composites, drawnPixels, copied, offGrid)
    }

    /// A fling moves the table far, with no more cells than fit plus one,
    /// each at its row, and its frames, drawn by moving the pixels already
    /// drawn (the compositor's scroll by copy), are those of the table
    /// drawn whole, pixel for pixel.
    func verify() {
        let start = table.contentOffset.y
        fling()
        // Refreshes that moved the content by a pixel or more, and those of
        // them whose frame moved the pixels already drawn (as the motion
        // slows down, many refreshes move the content by less than a pixel:
        // no frame at all).
        var frames = 0, moves = 0, copies = 0
        var cells = Set<ObjectIdentifier>()
        while isMoving {
            let offset = table.layer.bounds.origin
            synthesizer.advance(by: Self.frameInterval)
            if table.layer.bounds.origin != offset { moves += 1 }
            if composites {
                copies += compositor.tree.scrolls.count
                compositor.renderFrame()
            }
            frames += 1
            for cell in table.visibleCells { cells.insert(ObjectIdentifier(cell)) }
        }
        if composites {
            let drawn = compositor.withUnsafeBytes { Array($0) }
            compositor.renderFullFrame()
            let same = compositor.withUnsafeBytes { $0.elementsEqual(drawn) }
            guard same, copies >= moves * 9 / 10 else {
                fail("table: \(copies) of \(moves) moves (\(frames) refreshes) scrolled by copy; the last frame \(same ? "is" : "is not") the full frame")
            }
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

import TestExpectations
import Testing
@testable import UIKit

/// A flung table's frames are drawn by moving the pixels already drawn
/// (the compositor's scroll by copy) and drawing what the move exposed,
/// cells reused, the scroll indicator and a translucent button floating
/// over the rows: each frame must be the frame drawn whole, to the pixel.
@MainActor
@Suite struct TableScrollByCopyTests {
    @MainActor
    final class Rows: UITableViewDataSource {
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 500 }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            cell.textLabel?.text = "Row \(indexPath.row)"
            cell.accessoryType = .disclosureIndicator
            return cell
        }
    }

    /// The pixels that differ between the frame as drawn and the same
    /// committed tree drawn whole (which the frame then holds).
    func pixelsDifferingFromFullFrame(_ compositor: LayerCompositor) -> Int {
        let drawn = compositor.withUnsafeBytes { Array($0) }
        compositor.renderFullFrame()
        return compositor.withUnsafeBytes { full in
            var differing = 0
            for index in stride(from: 0, to: full.count, by: 4)
            where drawn[index] != full[index] || drawn[index + 1] != full[index + 1]
                || drawn[index + 2] != full[index + 2] || drawn[index + 3] != full[index + 3] {
                differing += 1
            }
            return differing
        }
    }

    @Test func aFlungTablesFramesAreCopiesThatMatchTheFullFrame() throws {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 160, height: 240))
        UIScreen.main.scale = 3
        UIScreen.main.maximumFramesPerSecond = 120   // a refresh at each step of the clock
        UIApplication.shared.runLoop.useManualClock()
        let rows = Rows()
        let table = UITableView(frame: window.bounds, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.dataSource = rows
        window.addSubview(table)
        // Over the rows, a later sibling: drawn again where it is and where the copy took its pixels.
        let button = UIView(frame: CGRect(x: 100, y: 170, width: 44, height: 44.5))
        button.backgroundColor = UIColor(red: 0, green: 0.4, blue: 1, alpha: 0.6)
        button.layer.cornerRadius = 22
        window.addSubview(button)
        UIApplication.shared.runLoop.runUntilIdle()
        let compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 480, pixelHeight: 720, scale: 3)
        compositor.renderFrame()

        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 80, y: 220))
        for step in 1...4 {
            synthesizer.advance(by: 1.0 / 120)
            synthesizer.touchMove(finger, to: CGPoint(x: 80, y: 220 - CGFloat(step) * 40))
        }
        synthesizer.touchUp(finger)
        compositor.renderFrame()
        var frames = 0, moves = 0, copied = 0, differing: [Int: Int] = [:]
        while table.isDecelerating && frames < 40 {
            let offset = table.layer.bounds.origin
            synthesizer.advance(by: 1.0 / 120)
            if table.layer.bounds.origin != offset { moves += 1 }
            copied += compositor.tree.scrolls.count
            compositor.renderFrame()
            frames += 1
            // Every frame at first, then runs of five frames built on one another.
            if frames <= 10 || frames % 5 == 0 {
                let count = pixelsDifferingFromFullFrame(compositor)
                if count > 0 { differing[frames] = count }
            }
        }
        withExtendedLifetime(rows) {}
        expectEqual(frames, 40, "the fling ended after \(frames) frames")
        #expect(moves >= 30 && copied >= moves * 9 / 10, "\(copied) of \(moves) moves (\(frames) refreshes) were copies")
        #expect(differing.isEmpty, "pixels differing from the full frame, by frame: \(differing)")
    }
}

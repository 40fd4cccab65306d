import UIKit

/// A canvas that draws a line under the finger.
final class CanvasViewController: UIViewController {
    override init(nibName: String?, bundle: Bundle?) {
        super.init(nibName: nibName, bundle: bundle)
        tabBarItem = UITabBarItem(title: "Canvas", image: UIImage(systemName: "pencil"), tag: 2)
    }

    required init?(coder: NSCoder) { nil }

    override func loadView() {
        view = CanvasView()
    }
}

/// Keeps every stroke as the points the finger passed through, and draws
/// them as lines.
final class CanvasView: UIView {
    private var strokes: [[CGPoint]] = []

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .white
    }

    required init?(coder: NSCoder) { nil }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        strokes.append([touch.location(in: self)])
        setNeedsDisplay()
    }

    /// Touch moves arrive once per frame; a screen that scans faster than
    /// the display refreshes reports several samples in that time, and
    /// drawing through every one (the touch's coalesced touches) keeps a
    /// quick stroke's curves round instead of cutting them into chords.
    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first, !strokes.isEmpty else { return }
        for sample in event?.coalescedTouches(for: touch) ?? [touch] {
            strokes[strokes.count - 1].append(sample.location(in: self))
        }
        setNeedsDisplay()
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        say("stroke of \(strokes.last?.count ?? 0) points")
    }

    override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.setStrokeColor(UIColor.systemIndigo.cgColor)
        context.setLineWidth(4)
        context.setLineCap(.round)
        context.setLineJoin(.round)
        for stroke in strokes where !stroke.isEmpty {
            context.move(to: stroke[0])
            for point in stroke.dropFirst() { context.addLine(to: point) }
            if stroke.count == 1 { context.addLine(to: stroke[0]) }
        }
        context.strokePath()
    }
}

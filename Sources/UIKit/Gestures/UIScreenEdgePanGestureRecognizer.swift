/// Edges of a rectangle.
public struct UIRectEdge: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let top = UIRectEdge(rawValue: 1 << 0)
    public static let left = UIRectEdge(rawValue: 1 << 1)
    public static let bottom = UIRectEdge(rawValue: 1 << 2)
    public static let right = UIRectEdge(rawValue: 1 << 3)
    public static let all: UIRectEdge = [.top, .left, .bottom, .right]
}

/// A pan that starts at an edge of the window: the first finger must land
/// within ``GestureThresholds/screenEdgeRegion`` of one of ``edges`` and move
/// away from it (more across the edge than along it).
@preconcurrency @MainActor
open class UIScreenEdgePanGestureRecognizer: UIPanGestureRecognizer {
    @exclusivity(unchecked) open var edges: UIRectEdge = []

    /// The edge the current touches started at.
    @exclusivity(unchecked) private var startEdge: UIRectEdge = []

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        if startEdge.isEmpty && state == .possible {
            guard let touch = touchesStillDown.first, let window = touch.window else {
                state = .failed
                return
            }
            let p = touch.location(in: nil)
            let b = window.bounds
            let region = GestureThresholds.screenEdgeRegion
            let near: [(UIRectEdge, Bool)] = [
                (.left, p.x - b.minX <= region), (.right, b.maxX - p.x <= region),
                (.top, p.y - b.minY <= region), (.bottom, b.maxY - p.y <= region),
            ]
            startEdge = near.firstSatisfying { edges.contains($0.0) && $0.1 }?.0 ?? []
            guard !startEdge.isEmpty else {
                state = .failed
                return
            }
        }
        super.touchesBegan(touches, with: event)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible {
            let t = translation(in: nil)
            if hypot(t.x, t.y) >= GestureThresholds.panHysteresis {
                let away: Bool
                switch startEdge {
                case .left: away = t.x > abs(t.y)
                case .right: away = -t.x > abs(t.y)
                case .top: away = t.y > abs(t.x)
                default: away = -t.y > abs(t.x)
                }
                guard away else {
                    state = .failed
                    return
                }
            }
        }
        super.touchesMoved(touches, with: event)
    }

    open override func reset() {
        super.reset()
        startEdge = []
    }
}

/// How far a screen's rounded corners, sensor housing and home indicator
/// reach in from each edge, in points: the screen's safe area, which the
/// event server tells every application in its welcome and which becomes
/// the safe area of the application's full-screen windows.
public struct ScreenInsets: Equatable, Sendable, CustomStringConvertible {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public static let zero = ScreenInsets(top: 0, left: 0, bottom: 0, right: 0)

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Reads `TOP,LEFT,BOTTOM,RIGHT` in points (`47,0,34,0`), the order of
    /// `UIEdgeInsets`; nil unless there are four numbers.
    public init?(parsing text: String) {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces) }
        guard numbers.count == 4, let top = numbers[0], let left = numbers[1], let bottom = numbers[2], let right = numbers[3] else {
            return nil
        }
        self.init(top: top, left: left, bottom: bottom, right: right)
    }

    /// Top, left, bottom, right: the order on the wire.
    public var edges: [Double] { [top, left, bottom, right] }

    /// Whether every inset is a finite number of points, none negative,
    /// and opposite insets leave some of a `width` × `height` screen between them.
    public func fits(width: Double, height: Double) -> Bool {
        edges.allSatisfy { $0.isFinite && $0 >= 0 } && top + bottom < height && left + right < width
    }

    public var description: String {
        edges.map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int($0)) : String($0) }.joined(separator: ",")
    }
}

private extension Substring {
    /// Without the spaces around it, so that `47, 0, 34, 0` reads too.
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}

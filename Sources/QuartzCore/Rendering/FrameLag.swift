/// What memory the frame was drawn in before lacks of the frame as it is
/// now, while frames are drawn in other memory (the screen's shared
/// buffers: the event server holds the buffer drawn last, so the next
/// frame goes into another, which missed the frames in between).
///
/// A scroll of whole rows of the frame made while the memory was not drawn
/// in is not a rectangle it lacks but a turn of its ring of rows still to
/// make (``turn``): when the frame comes back to it, its first row moves on
/// by the turns of every such scroll, and only what the turns do not bring
/// (rows scrolled into view, what was drawn, rows outside the scrolls'
/// rectangles) is copied in (``rects``). So a list as wide as the screen,
/// scrolled frame after frame while the frames go from buffer to buffer,
/// copies the rows it brings into view rather than the whole screen.
package struct FrameLag: Sendable {
    /// The rows the memory's ring must turn by, as a scroll's `dy`.
    package private(set) var turn = 0
    /// The rectangles of the frame, after the turn, that the memory does
    /// not hold.
    package private(set) var rects = Damage()
    /// The next ``rects`` as a turn works it out, kept so that a frame
    /// allocates nothing once warm.
    private var turned = Damage()

    package init() {}

    /// The memory lacks the whole frame (new memory).
    package mutating func lackWhole(_ frame: PixelRect) {
        turn = 0
        rects.removeAll()
        rects.add(frame)
    }

    /// The memory holds the frame as it is.
    package mutating func removeAll() {
        turn = 0
        rects.removeAll()
    }

    /// A frame of `frame`'s size was drawn elsewhere: it moved `scrolls`
    /// and drew `drawn`.
    package mutating func add(scrolls: [PixelScroll], drawn: [PixelRect], frame: PixelRect) {
        if scrolls.count == 1, let scroll = scrolls.first, scroll.turnsRing(of: frame) {
            // The turn moves every row: what the memory lacked moves with
            // the scrolled pixels (and what leaves the scroll's rectangle is
            // no longer lacked there); rows scrolled into view and the rows
            // outside the rectangle, which did not move, are lacked now.
            turn += scroll.dy
            let rect = scroll.rect.intersection(frame)
            turned.removeAll()
            for lacked in rects.rects {
                turned.add(lacked.intersection(rect).offsetBy(dx: 0, dy: scroll.dy).intersection(rect))
            }
            turned.add(PixelRect(x0: frame.x0, y0: frame.y0, x1: frame.x1, y1: rect.y0))
            turned.add(PixelRect(x0: frame.x0, y0: rect.y1, x1: frame.x1, y1: frame.y1))
            rect.forEachPart(notCoveredBy: scroll.destination) { turned.add($0) }
            swap(&rects, &turned)
        } else {
            for scroll in scrolls { rects.add(scroll.destination.intersection(frame)) }
        }
        for rect in drawn { rects.add(rect) }
    }

    /// The memory row that holds the frame's top row once the ring is
    /// turned, for memory whose top row is at `firstRow` now.
    package func firstRow(turning firstRow: Int, height: Int) -> Int {
        ((firstRow - turn) % height + height) % height
    }
}

import Foundation

/// How a table view shows an update over time.
///
/// The model changes at once, as everywhere in Core Animation: when an
/// update call returns, index paths, `rectForRow(at:)`, `visibleCells` and
/// the cells' frames are the new ones. What is shown then follows over
/// `TableViewMetrics.updateAnimationDuration`, when the table is in a
/// window and animations are enabled (not inside
/// `UIView.performWithoutAnimation`, not a diffable snapshot applied with
/// `animatingDifferences: false`):
///
/// 1. cells that stay slide from where they were to their new places, and
///    rows the change pulls into view slide in with their neighbours;
/// 2. cells of inserted rows come in, and cells of deleted or reloaded rows
///    leave, as their `RowAnimation` says: `.left`, `.right`, `.top` and
///    `.bottom` slide from or to that side by the row's width or height,
///    `.none` shows the change at once, and the others (`.fade`,
///    `.middle`, `.automatic`) fade;
/// 3. a leaving cell is kept on screen, not touchable, until the animation
///    ends; then it goes to its reuse queue;
/// 4. completions (`performBatchUpdates`' and a diffable apply's) run when
///    the animation ends, with whether it ran to its end
///    (`ListUpdateAnimation`).
extension UITableView {
    /// The cells of the rows on screen before an update: where each was.
    struct UpdateStart {
        var framesOfCellsThatStay: [ObjectIdentifier: CGRect] = [:]
        /// Cells of deleted and reloaded rows, shown leaving.
        var leavingCells: [UITableViewCell] = []
    }

    /// Animates from `start` to what the table now shows (its model), as
    /// the type's documentation says.
    func animateUpdate(_ update: ListUpdate, from start: UpdateStart) -> ListUpdateAnimation {
        let animation = ListUpdateAnimation()
        var targets: [(cell: UITableViewCell, frame: CGRect)] = []
        var arrivals: [UITableViewCell] = []
        var shiftOfRowAbove: CGFloat?
        for row in visibleRows {
            let target = row.cell.frame
            if let old = start.framesOfCellsThatStay[ObjectIdentifier(row.cell)] {
                shiftOfRowAbove = old.minY - target.minY
                guard old != target else { continue }
                row.cell.frame = old
                targets.append((row.cell, target))
            } else if let shift = shiftOfRowAbove, !update.bringsNewContent(to: row.indexPath) {
                guard shift != 0 else { continue }
                row.cell.frame.origin.y += shift
                targets.append((row.cell, target))
            } else {
                switch update.insertionAnimation {
                case .none: continue
                case .left, .right, .top, .bottom:
                    row.cell.frame = target.offset(toward: update.insertionAnimation)
                    targets.append((row.cell, target))
                default:
                    row.cell.alpha = 0
                    arrivals.append(row.cell)
                }
            }
        }
        for cell in start.leavingCells { cell.isUserInteractionEnabled = false }
        let deletion = update.deletionAnimation
        UIView.animate(withDuration: TableViewMetrics.updateAnimationDuration, delay: 0, options: [.allowUserInteraction]) {
            for (cell, frame) in targets { cell.frame = frame }
            for cell in arrivals { cell.alpha = 1 }
            for cell in start.leavingCells {
                switch deletion {
                case .left, .right, .top, .bottom: cell.frame = cell.frame.offset(toward: deletion)
                default: cell.alpha = 0
                }
            }
        } completion: { [weak self] finished in
            for cell in start.leavingCells {
                cell.alpha = 1
                cell.isUserInteractionEnabled = true
                self?.enqueueForReuse(cell)
            }
            animation.finish(finished)
        }
        return animation
    }
}

extension CGRect {
    /// The rectangle moved out of the way in `animation`'s direction: by its
    /// width to the left or right, by its height up or down.
    fileprivate func offset(toward animation: UITableView.RowAnimation) -> CGRect {
        switch animation {
        case .left: offsetBy(dx: -width, dy: 0)
        case .right: offsetBy(dx: width, dy: 0)
        case .top: offsetBy(dx: 0, dy: -height)
        case .bottom: offsetBy(dx: 0, dy: height)
        default: self
        }
    }
}

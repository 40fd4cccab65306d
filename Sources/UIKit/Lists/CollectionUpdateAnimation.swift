import Foundation

/// How a collection view shows an update over time, as UIKit's default
/// layouts do.
///
/// The model changes at once: when an update call returns, index paths,
/// `layoutAttributesForItem(at:)`, `visibleCells` and the cells' frames are
/// the new ones. What is shown then follows over
/// `TableViewMetrics.updateAnimationDuration` (the table's), when the
/// collection view is in a window and animations are enabled (not inside
/// `UIView.performWithoutAnimation`, not a diffable snapshot applied with
/// `animatingDifferences: false`):
///
/// 1. items that stay, and items the change pulls into view, move from
///    where the layout had them before the update to where it has them now;
/// 2. inserted and reloaded items come in from their layout's
///    `initialLayoutAttributesForAppearingItem(at:)`, or fade in where they
///    go when it has none (the default);
/// 3. deleted and reloaded items' cells leave towards
///    `finalLayoutAttributesForDisappearingItem(at:)`, or fade out where they
///    were; they are kept on screen, not touchable, until the animation
///    ends, and then go to their reuse queue;
/// 4. completions (`performBatchUpdates`' and a diffable apply's) run when
///    the animation ends (`ListUpdateAnimation`).
extension UICollectionView {
    /// Where the items were shown before an update, by their index paths after it.
    struct UpdateStart {
        var framesBefore: [IndexPath: CGRect] = [:]
    }

    /// Notes, before `update` changes the model, where the layout shows
    /// every item that stays, on screen and up to a screen beyond it on
    /// each side (items further away come in from where they go).
    func updateStart(for update: ListUpdate) -> UpdateStart {
        var start = UpdateStart()
        collectionViewLayout.prepareIfNeeded()
        let area = viewRect(fromLayout: bounds.insetBy(dx: -bounds.width, dy: -bounds.height))
        for element in collectionViewLayout.layoutAttributesForElements(in: area) ?? []
        where element.representedElementCategory == .cell && !element.isHidden {
            if let newPath = update.newIndexPath(of: element.indexPath) {
                start.framesBefore[newPath] = viewRect(fromLayout: element.frame)
            }
        }
        return start
    }

    /// Animates from `start` to what the collection view now shows (its
    /// model), as the extension's documentation says; `leaving` are the
    /// cells of deleted and reloaded items, by their index paths before the update.
    func animateUpdate(from start: UpdateStart, leaving: [(indexPath: IndexPath, cell: UICollectionViewCell)]) -> ListUpdateAnimation {
        let animation = ListUpdateAnimation()
        var targets: [(cell: UICollectionViewCell, frame: CGRect, alpha: CGFloat)] = []
        for (indexPath, cell) in visibleCellsByIndexPath {
            let target = (cell: cell, frame: cell.frame, alpha: cell.alpha)
            if let before = start.framesBefore[indexPath] {
                guard before != target.frame else { continue }
                cell.frame = before
            } else if let initial = collectionViewLayout.initialLayoutAttributesForAppearingItem(at: indexPath) {
                cell.frame = viewRect(fromLayout: initial.frame)
                cell.alpha = initial.alpha
            } else {
                cell.alpha = 0
            }
            targets.append(target)
        }
        var ends: [(cell: UICollectionViewCell, frame: CGRect, alpha: CGFloat)] = []
        for (indexPath, cell) in leaving {
            cell.isUserInteractionEnabled = false
            let final = collectionViewLayout.finalLayoutAttributesForDisappearingItem(at: indexPath)
            ends.append((cell, final.map { viewRect(fromLayout: $0.frame) } ?? cell.frame, final?.alpha ?? 0))
        }
        UIView.animate(withDuration: TableViewMetrics.updateAnimationDuration, delay: 0, options: [.allowUserInteraction]) {
            for target in targets + ends {
                target.cell.frame = target.frame
                target.cell.alpha = target.alpha
            }
        } completion: { [weak self] finished in
            for (_, cell) in leaving {
                cell.alpha = 1
                cell.isUserInteractionEnabled = true
                self?.enqueueForReuse(cell)
            }
            animation.finish(finished)
        }
        return animation
    }
}

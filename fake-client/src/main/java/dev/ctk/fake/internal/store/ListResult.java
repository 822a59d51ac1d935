package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One page of a list.
 *
 * @param items the objects, in key order (namespace, then name); never mutated
 * @param resourceVersion the global resourceVersion of the snapshot the page comes from
 * @param continueToken the token for the next page, or {@code null} on the last page
 * @param remainingItemCount how many items follow this page, or {@code null} when not known (selectors used)
 */
public record ListResult(List<ObjectNode> items, long resourceVersion, String continueToken,
    Long remainingItemCount) {
}

/**
 * Example 2: the ReplicaSet labeller, with Pods mapped to their owning ReplicaSet.
 *
 * <p>Limits: it only adds the label; it never removes labels, and it uses a read-modify-write
 * {@code edit}, so a concurrent writer makes it retry on 409 Conflict rather than merge.
 */
package dev.ctk.examples.labeller;

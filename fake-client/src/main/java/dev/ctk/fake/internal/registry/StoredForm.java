package dev.ctk.fake.internal.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How a built-in resource keeps its objects when kube stores them in another resource's form: kube-apiserver keeps
 * {@code events.k8s.io/v1} Events in the {@code core/v1} Event collection (one object, two views), converting
 * fields on the way in and out. A resource with a stored form shares the collection of {@link #storageGroup()}'s
 * resource of the same plural.
 */
public interface StoredForm {

  /**
   * The group whose collection holds the objects.
   *
   * @return e.g. {@code ""} (core) for events.k8s.io Events
   */
  String storageGroup();

  /**
   * An object as this resource receives it (a create or update body, a patched object), in the stored form.
   *
   * @param served the object in this resource's form (may be modified)
   * @return the object in the stored form ({@code apiVersion} and {@code kind} as sent)
   */
  ObjectNode toStorage(ObjectNode served);

  /**
   * A stored object as this resource serves it.
   *
   * @param stored the stored object (never modified)
   * @return a new tree in this resource's form, or {@code stored} itself when nothing changes
   */
  ObjectNode fromStorage(ObjectNode stored);
}

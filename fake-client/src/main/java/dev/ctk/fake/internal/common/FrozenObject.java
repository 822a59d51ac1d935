package dev.ctk.fake.internal.common;

/**
 * A JSON object that is never modified once published (a stored version), so that one serialization of it can serve
 * every reader that writes it whole: a write's watch events ({@link #json()}) and then its answer ({@link
 * #takeJson()}), on the writer's thread. Another thread that writes the events (an in-process watch's delivery thread
 * that asks first) uses {@link #takeJson()}, so that it keeps nothing.
 */
public interface FrozenObject {

  /**
   * This object's JSON as {@link WireJson} writes the tree, kept for the next reader. Do not modify the array.
   *
   * @return the UTF-8 bytes
   */
  byte[] json();

  /**
   * {@link #json()} for its last reader: the same bytes, no longer kept afterwards. Do not modify the array.
   *
   * @return the UTF-8 bytes
   */
  byte[] takeJson();
}

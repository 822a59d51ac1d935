package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Filters informer events before they reach a controller's {@link EventHandler}: an event whose
 * predicate returns {@code false} queues nothing. Every method lets events through by default.
 *
 * <pre>{@code
 * Controller.builder("network")
 *     .watch(networks, EventHandlers.enqueueObject(),
 *         EventPredicate.<Network>generationChanged().or(EventPredicate.labelsChanged()))
 *     ...
 * }</pre>
 *
 * @param <T> the informer's object type
 * @since 0.1.0
 */
public interface EventPredicate<T extends HasMetadata> {

  /**
   * Whether an add event passes.
   *
   * @param object the added object
   * @return {@code true} to let it through
   */
  default boolean onAdd(T object) {
    return true;
  }

  /**
   * Whether an update event passes (informer resyncs arrive as updates with equal objects).
   *
   * @param oldObject the last known state
   * @param newObject the new state
   * @return {@code true} to let it through
   */
  default boolean onUpdate(T oldObject, T newObject) {
    return true;
  }

  /**
   * Whether a delete event passes.
   *
   * @param object the last known state of the deleted object
   * @return {@code true} to let it through
   */
  default boolean onDelete(T object) {
    return true;
  }

  /**
   * Updates pass only if {@code metadata.generation} changed, which drops status-only and
   * metadata-only changes of kinds that track a generation. Adds and deletes pass.
   *
   * @param <T> the object type
   * @return the predicate
   */
  static <T extends HasMetadata> EventPredicate<T> generationChanged() {
    return updatesWhereChanged(ObjectMeta::getGeneration);
  }

  /**
   * Updates pass only if {@code metadata.labels} changed. Adds and deletes pass.
   *
   * @param <T> the object type
   * @return the predicate
   */
  static <T extends HasMetadata> EventPredicate<T> labelsChanged() {
    return updatesWhereChanged(meta -> emptyIfNull(meta.getLabels()));
  }

  /**
   * Updates pass only if {@code metadata.annotations} changed. Adds and deletes pass.
   *
   * @param <T> the object type
   * @return the predicate
   */
  static <T extends HasMetadata> EventPredicate<T> annotationsChanged() {
    return updatesWhereChanged(meta -> emptyIfNull(meta.getAnnotations()));
  }

  /**
   * Updates pass only if {@code metadata.resourceVersion} changed: drops the no-op updates of informer
   * resyncs. Adds and deletes pass.
   *
   * @param <T> the object type
   * @return the predicate
   */
  static <T extends HasMetadata> EventPredicate<T> resourceVersionChanged() {
    return updatesWhereChanged(ObjectMeta::getResourceVersion);
  }

  /**
   * Events pass only for objects whose labels contain every entry of {@code matchLabels}; an update
   * passes if the old or the new object matches (so a controller sees an object leave the selection).
   *
   * <p><b>Differs from controller-runtime</b>, whose {@code LabelSelectorPredicate} checks only the
   * new object of an update: there, an object whose labels stop matching is never reconciled for that
   * change. Here it is, once. Combine with {@code not(..)} or write a predicate to get the
   * new-object-only behaviour.
   *
   * @param matchLabels the labels to match, like a label selector's {@code matchLabels}
   * @param <T> the object type
   * @return the predicate
   */
  static <T extends HasMetadata> EventPredicate<T> labelSelector(Map<String, String> matchLabels) {
    Objects.requireNonNull(matchLabels, "EventPredicate.labelSelector: matchLabels is null");
    Map<String, String> wanted = Map.copyOf(matchLabels);
    return new EventPredicate<>() {
      private boolean matches(T object) {
        Map<String, String> labels = object.getMetadata() == null
            ? Map.of()
            : emptyIfNull(object.getMetadata().getLabels());
        return labels.entrySet().containsAll(wanted.entrySet());
      }

      @Override
      public boolean onAdd(T object) {
        return matches(object);
      }

      @Override
      public boolean onUpdate(T oldObject, T newObject) {
        return matches(oldObject) || matches(newObject);
      }

      @Override
      public boolean onDelete(T object) {
        return matches(object);
      }

      @Override
      public String toString() {
        return "labelSelector(" + wanted + ")";
      }
    };
  }

  /**
   * Both predicates must let an event through.
   *
   * @param other the other predicate
   * @return the combined predicate
   */
  default EventPredicate<T> and(EventPredicate<T> other) {
    Objects.requireNonNull(other, "EventPredicate.and: other is null");
    EventPredicate<T> self = this;
    return new EventPredicate<>() {
      @Override
      public boolean onAdd(T object) {
        return self.onAdd(object) && other.onAdd(object);
      }

      @Override
      public boolean onUpdate(T oldObject, T newObject) {
        return self.onUpdate(oldObject, newObject) && other.onUpdate(oldObject, newObject);
      }

      @Override
      public boolean onDelete(T object) {
        return self.onDelete(object) && other.onDelete(object);
      }
    };
  }

  /**
   * Either predicate may let an event through.
   *
   * @param other the other predicate
   * @return the combined predicate
   */
  default EventPredicate<T> or(EventPredicate<T> other) {
    Objects.requireNonNull(other, "EventPredicate.or: other is null");
    EventPredicate<T> self = this;
    return new EventPredicate<>() {
      @Override
      public boolean onAdd(T object) {
        return self.onAdd(object) || other.onAdd(object);
      }

      @Override
      public boolean onUpdate(T oldObject, T newObject) {
        return self.onUpdate(oldObject, newObject) || other.onUpdate(oldObject, newObject);
      }

      @Override
      public boolean onDelete(T object) {
        return self.onDelete(object) || other.onDelete(object);
      }
    };
  }

  /**
   * Lets through exactly the events {@code predicate} drops.
   *
   * @param predicate the predicate to negate
   * @param <T> the object type
   * @return the negated predicate
   */
  static <T extends HasMetadata> EventPredicate<T> not(EventPredicate<T> predicate) {
    Objects.requireNonNull(predicate, "EventPredicate.not: predicate is null");
    return new EventPredicate<>() {
      @Override
      public boolean onAdd(T object) {
        return !predicate.onAdd(object);
      }

      @Override
      public boolean onUpdate(T oldObject, T newObject) {
        return !predicate.onUpdate(oldObject, newObject);
      }

      @Override
      public boolean onDelete(T object) {
        return !predicate.onDelete(object);
      }
    };
  }

  private static <T extends HasMetadata> EventPredicate<T> updatesWhereChanged(
      Function<ObjectMeta, Object> field) {
    return new EventPredicate<>() {
      @Override
      public boolean onUpdate(T oldObject, T newObject) {
        return !Objects.equals(valueOf(oldObject), valueOf(newObject));
      }

      private Object valueOf(T object) {
        return object == null || object.getMetadata() == null
            ? null
            : field.apply(object.getMetadata());
      }
    };
  }

  private static Map<String, String> emptyIfNull(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}

package dev.ctk.junit;

import dev.ctk.harness.values.Mode;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The mode of one invocation of an {@link AcrossModes @AcrossModes} class template, kept in the
 * store of the invocation's own extension context (under {@link Key} with that context's unique id).
 *
 * @param mode the mode of the invocation
 * @param source where the mode list came from, for messages: {@code @AcrossModes on
 *     com.example.FooTest}, {@code @AcrossModes on com.example.FooTest (modes from environment
 *     variable CTK_MODES)} or {@code ... (default modes fake,envtest)}
 */
record ModeInvocation(Mode mode, String source) {

  /**
   * The store key of an invocation's mode.
   *
   * @param uniqueId the unique id of the invocation's extension context
   */
  record Key(String uniqueId) {}

  /** Records the mode of the invocation whose context this is. */
  void storeIn(ExtensionContext invocationContext) {
    invocationContext.getStore(ScopeResolution.NAMESPACE)
        .put(new Key(invocationContext.getUniqueId()), this);
  }

  /** The invocation whose own context this is, if it is one. */
  static Optional<ModeInvocation> of(ExtensionContext context) {
    return Optional.ofNullable(context.getStore(ScopeResolution.NAMESPACE)
        .get(new Key(context.getUniqueId()), ModeInvocation.class));
  }

  /** The invocation at or above {@code context}: the mode the context runs in, if any. */
  static Optional<ModeInvocation> enclosing(ExtensionContext context) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      Optional<ModeInvocation> found = of(c);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }
}

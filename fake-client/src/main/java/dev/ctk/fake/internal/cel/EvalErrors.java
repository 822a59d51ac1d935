package dev.ctk.fake.internal.cel;

import dev.cel.common.CelErrorCode;
import dev.cel.runtime.CelEvaluationException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cel-java's evaluation errors in cel-go's words, as kube prints them after a rule failed to evaluate
 * ({@code no such key: replicas}, {@code index out of bounds: 3}, {@code division by zero},
 * {@code integer overflow}, {@code no such overload}, or a Kubernetes library function's own text).
 */
final class EvalErrors {

  private static final Pattern MISSING_KEY = Pattern.compile("key '(.*)' is not present in map\\.");
  private static final Pattern LOCATION = Pattern.compile("^evaluation error at <input>:\\d+: ");

  private EvalErrors() {}

  /** Whether the error is cel-go's {@code no such overload} (kube words those differently). */
  static boolean noSuchOverload(CelEvaluationException e) {
    return e.getErrorCode() == CelErrorCode.OVERLOAD_NOT_FOUND;
  }

  static String text(CelEvaluationException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof KubeFunctionError) {
        return t.getMessage();
      }
    }
    String own = LOCATION.matcher(String.valueOf(e.getMessage())).replaceFirst("");
    return switch (e.getErrorCode()) {
      case ATTRIBUTE_NOT_FOUND -> {
        String cause = e.getCause() == null ? own : String.valueOf(e.getCause().getMessage());
        Matcher m = MISSING_KEY.matcher(cause);
        yield "no such key: " + (m.matches() ? m.group(1) : cause);
      }
      case INDEX_OUT_OF_BOUNDS -> own.replace("Index out of bounds", "index out of bounds");
      case DIVIDE_BY_ZERO -> "division by zero";
      case NUMERIC_OVERFLOW -> "integer overflow";
      case OVERLOAD_NOT_FOUND -> "no such overload";
      default -> e.getCause() instanceof java.util.NoSuchElementException ? "optional.none() dereference" : own;
    };
  }
}

package dev.ctk.fake.internal.select;

import dev.ctk.fake.internal.status.GoText;
import dev.ctk.fake.internal.select.LabelSelector.Operator;
import dev.ctk.fake.internal.select.LabelSelector.Requirement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Tokenizer and recursive-descent parser for label selectors, accepting exactly what kube's
 * {@code labels.Parse} accepts and failing with its messages. {@code in}/{@code notin} are operators
 * after a key and ordinary identifiers where a key or value is expected.
 */
final class LabelSelectorParser {

  private enum Token {
    END, OPEN_PAR, CLOSED_PAR, COMMA, NOT, EQUALS, DOUBLE_EQUALS, NOT_EQUALS, GREATER_THAN, LESS_THAN, IN, NOT_IN, IDENTIFIER
  }

  private static final class Item {
    final Token token;
    final String literal;

    Item(Token token, String literal) {
      this.token = token;
      this.literal = literal;
    }
  }

  /** A problem inside one requirement; reported as {@code unable to parse requirement: ...}. */
  private static final class Problem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Problem(String message) {
      super(message, null, false, false);
    }
  }

  private static final String OPERATORS = "in, notin, =, ==, !=, gt, lt";

  private final List<Item> items;
  private int position;

  LabelSelectorParser(String text) {
    this.items = lex(text);
  }

  List<Requirement> parse() {
    List<Requirement> requirements = new ArrayList<>();
    while (true) {
      Item next = peek(true);
      switch (next.token) {
        case IDENTIFIER:
        case NOT:
          try {
            requirements.add(requirement());
          } catch (Problem problem) {
            throw new SelectorException("unable to parse requirement: " + problem.getMessage());
          }
          Item after = take(true);
          if (after.token == Token.END) {
            return requirements;
          }
          if (after.token != Token.COMMA) {
            throw new SelectorException("found '" + after.literal + "', expected: ',' or 'end of string'");
          }
          Item following = peek(true);
          if (following.token != Token.IDENTIFIER && following.token != Token.NOT) {
            throw new SelectorException("found '" + following.literal + "', expected: identifier after ','");
          }
          break;
        case END:
          return requirements;
        default:
          throw new SelectorException("found '" + next.literal + "', expected: !, identifier, or 'end of string'");
      }
    }
  }

  private Requirement requirement() {
    Item first = take(true);
    boolean negated = first.token == Token.NOT;
    if (negated) {
      first = take(true);
    }
    if (first.token != Token.IDENTIFIER) {
      throw new Problem("found '" + first.literal + "', expected: identifier");
    }
    String key = first.literal;
    List<String> keyErrors = LabelValidation.keyErrors(key);
    if (!keyErrors.isEmpty()) {
      throw new Problem("<nil>: Invalid value: " + GoText.quote(key) + ": " + String.join("; ", keyErrors));
    }
    Token following = peek(true).token;
    if (negated) {
      return newRequirement(key, Operator.DOES_NOT_EXIST, List.of());
    }
    if (following == Token.END || following == Token.COMMA) {
      return newRequirement(key, Operator.EXISTS, List.of());
    }
    Item operatorItem = take(false);
    Operator operator;
    switch (operatorItem.token) {
      case IN:
        operator = Operator.IN;
        break;
      case NOT_IN:
        operator = Operator.NOT_IN;
        break;
      case EQUALS:
        operator = Operator.EQUALS;
        break;
      case DOUBLE_EQUALS:
        operator = Operator.DOUBLE_EQUALS;
        break;
      case NOT_EQUALS:
        operator = Operator.NOT_EQUALS;
        break;
      case GREATER_THAN:
        operator = Operator.GREATER_THAN;
        break;
      case LESS_THAN:
        operator = Operator.LESS_THAN;
        break;
      default:
        throw new Problem("found '" + operatorItem.literal + "', expected: " + OPERATORS);
    }
    Set<String> values = operator == Operator.IN || operator == Operator.NOT_IN ? valueSet() : exactValue();
    return newRequirement(key, operator, new ArrayList<>(new TreeSet<>(values)));
  }

  private Set<String> valueSet() {
    Item open = take(true);
    if (open.token != Token.OPEN_PAR) {
      throw new Problem("found '" + open.literal + "' expected: '('");
    }
    Item next = peek(true);
    switch (next.token) {
      case IDENTIFIER:
      case COMMA:
        Set<String> values = identifierList();
        if (take(true).token != Token.CLOSED_PAR) {
          throw new Problem("found '" + next.literal + "', expected: ')'");
        }
        return values;
      case CLOSED_PAR:
        take(true);
        return Set.of("");
      default:
        throw new Problem("found '" + next.literal + "', expected: ',', ')' or identifier");
    }
  }

  /** A comma-separated list in which empty entries stand for the empty value; stops before ')'. */
  private Set<String> identifierList() {
    Set<String> values = new LinkedHashSet<>();
    while (true) {
      Item item = take(true);
      if (item.token == Token.IDENTIFIER) {
        values.add(item.literal);
        Item next = peek(true);
        if (next.token == Token.CLOSED_PAR) {
          return values;
        }
        if (next.token != Token.COMMA) {
          throw new Problem("found '" + next.literal + "', expected: ',' or ')'");
        }
      } else if (item.token == Token.COMMA) {
        if (values.isEmpty()) {
          values.add("");
        }
        Token next = peek(true).token;
        if (next == Token.CLOSED_PAR) {
          values.add("");
          return values;
        }
        if (next == Token.COMMA) {
          take(true);
          values.add("");
        }
      } else {
        throw new Problem("found '" + item.literal + "', expected: ',', or identifier");
      }
    }
  }

  private Set<String> exactValue() {
    Token next = peek(true).token;
    if (next == Token.END || next == Token.COMMA) {
      return Set.of("");
    }
    Item item = take(true);
    if (item.token != Token.IDENTIFIER) {
      throw new Problem("found '" + item.literal + "', expected: identifier");
    }
    return Set.of(item.literal);
  }

  /** kube's {@code NewRequirement} checks on the (sorted) values, aggregated as kube aggregates them. */
  private static Requirement newRequirement(String key, Operator operator, List<String> values) {
    Set<String> errors = new LinkedHashSet<>();
    if (operator == Operator.GREATER_THAN || operator == Operator.LESS_THAN) {
      for (int i = 0; i < values.size(); i++) {
        if (LabelSelector.parseInteger(values.get(i)) == null) {
          errors.add("values[" + i + "]: Invalid value: " + GoText.quote(values.get(i))
              + ": for 'Gt', 'Lt' operators, the value must be an integer");
        }
      }
    }
    for (int i = 0; i < values.size(); i++) {
      List<String> valueErrors = LabelValidation.valueErrors(values.get(i));
      if (!valueErrors.isEmpty()) {
        errors.add("values[" + i + "][" + key + "]: Invalid value: " + GoText.quote(values.get(i))
            + ": " + String.join("; ", valueErrors));
      }
    }
    if (errors.size() == 1) {
      throw new Problem(errors.iterator().next());
    }
    if (errors.size() > 1) {
      throw new Problem("[" + String.join(", ", errors) + "]");
    }
    return new Requirement(key, operator, values);
  }

  private Item peek(boolean valueContext) {
    return asValue(items.get(position), valueContext);
  }

  private Item take(boolean valueContext) {
    Item item = items.get(position);
    if (position < items.size() - 1) {
      position++;
    }
    return asValue(item, valueContext);
  }

  /** Where a key or value is expected, {@code in} and {@code notin} are plain identifiers. */
  private static Item asValue(Item item, boolean valueContext) {
    if (valueContext && (item.token == Token.IN || item.token == Token.NOT_IN)) {
      return new Item(Token.IDENTIFIER, item.literal);
    }
    return item;
  }

  private static List<Item> lex(String text) {
    List<Item> items = new ArrayList<>();
    int i = 0;
    while (true) {
      while (i < text.length() && isWhitespace(text.charAt(i))) {
        i++;
      }
      if (i >= text.length()) {
        items.add(new Item(Token.END, ""));
        return items;
      }
      char c = text.charAt(i);
      if (isSpecial(c)) {
        boolean pair = i + 1 < text.length() && text.charAt(i + 1) == '=' && (c == '!' || c == '=');
        String symbol = pair ? text.substring(i, i + 2) : String.valueOf(c);
        items.add(new Item(symbolToken(symbol), symbol));
        i += symbol.length();
      } else {
        int start = i;
        while (i < text.length() && !isSpecial(text.charAt(i)) && !isWhitespace(text.charAt(i))) {
          i++;
        }
        String word = text.substring(start, i);
        Token token = word.equals("in") ? Token.IN : word.equals("notin") ? Token.NOT_IN : Token.IDENTIFIER;
        items.add(new Item(token, word));
      }
    }
  }

  private static Token symbolToken(String symbol) {
    switch (symbol) {
      case "(":
        return Token.OPEN_PAR;
      case ")":
        return Token.CLOSED_PAR;
      case ",":
        return Token.COMMA;
      case "!":
        return Token.NOT;
      case "=":
        return Token.EQUALS;
      case "==":
        return Token.DOUBLE_EQUALS;
      case "!=":
        return Token.NOT_EQUALS;
      case ">":
        return Token.GREATER_THAN;
      default:
        return Token.LESS_THAN;
    }
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  private static boolean isSpecial(char c) {
    return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
  }
}

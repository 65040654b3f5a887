// An included file that compiles: preludeValue() (GLRendererTests).
float preludeValue() {
  return 0.5;
}
